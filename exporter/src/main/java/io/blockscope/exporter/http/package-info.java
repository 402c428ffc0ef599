/**
 * Owns the Jetty 12 endpoint (compiled for Java 17, loaded by name only on 17+): routes, basic
 * auth, TLS and Jetty's limits. May depend on auth, tls, page, self and the exporter's
 * configuration.
 */
package io.blockscope.exporter.http;
