/**
 * The {@code generate} goal of {@code io.sirocco:idl-maven-plugin}.
 */
package io.sirocco.idl.maven;
