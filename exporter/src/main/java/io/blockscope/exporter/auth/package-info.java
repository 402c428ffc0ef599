/**
 * Owns who may scrape: password hashes, credentials, secrets from files or the environment, and
 * the gate that caches verified headers and rations password checks. Depends on nothing but the
 * CLI's failure type.
 */
package io.blockscope.exporter.auth;
