/**
 * Owns ByteBuff, the one buffer abstraction of the read path (a single NIO buffer or several 4
 * MB pieces), and the unsigned compares over it. Depends on nothing else in the server: every
 * other layer builds on it.
 */
package io.blockscope.server.buffer;
