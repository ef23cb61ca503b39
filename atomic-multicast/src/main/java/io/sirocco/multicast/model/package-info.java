/**
 * The value types and callbacks of the multicast public face: views and members, subgroup shapes and roles, slot
 * claims and their result codes, and the delivery handler. They sit below both the face ({@code Group},
 * {@code Subgroup}) and the mechanism packages ({@code smc}, {@code view}, {@code contact}, ...), which all use them,
 * so that no package depends on another that depends on it. Nothing here starts a thread or holds a lock.
 */
package io.sirocco.multicast.model;
