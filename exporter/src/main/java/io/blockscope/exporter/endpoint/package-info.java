/**
 * Owns the HTTP endpoint chosen per JDK (Jetty on 17+, Netty on 11 to 16) and the Netty
 * implementation, which must answer exactly as Jetty does. May depend on auth, tls, page, self
 * and the exporter's configuration.
 */
package io.blockscope.exporter.endpoint;
