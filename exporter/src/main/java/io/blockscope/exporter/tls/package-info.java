/**
 * Owns TLS material: PEM and PKCS12 loading, the key and certificate match check. A leaf.
 */
package io.blockscope.exporter.tls;
