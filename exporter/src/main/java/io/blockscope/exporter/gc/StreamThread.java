package io.blockscope.exporter.gc;

/** A source that consumes its events on a thread of its own. */
interface StreamThread {

    /** The thread, so that its CPU time can be told apart from a host's thread of the same name. */
    Thread thread();
}
