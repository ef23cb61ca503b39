/**
 * Cross-module integration tests: multi-process tests that start and stop their own member processes, multi-host
 * tests in network namespaces (run as root, skipped with a stated reason otherwise), fault injection, and
 * conformance tests against the OMG DDS API.
 */
package io.sirocco.tests;
