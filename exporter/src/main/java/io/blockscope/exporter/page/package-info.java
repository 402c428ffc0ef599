/**
 * Owns the live page at / of the endpoint: sampled history, the read-path verdict, HTML with
 * every label escaped, no inline script. Transport-neutral: both endpoints serve its replies.
 */
package io.blockscope.exporter.page;
