package io.blockscope.agent.record;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One sampled copy of offheap bytes onto the heap, with the stack that asked for it: open a
 * recording in JDK Mission Control, or {@code jfr print --events blockscope.CopyToHeap rec.jfr}.
 */
@Name("blockscope.CopyToHeap")
@Label("Copy to heap")
@Category({"blockscope", "Block cache"})
@Description(
        "A sampled getXxxArray() on a buffer-backed cell, or a whole-block copy, that copied offheap bytes onto the heap")
@StackTrace(true)
public final class CopyToHeapEvent extends Event {

    @Label("Component")
    @Description("row, family, qualifier, value, tags, or block")
    String component;

    @Label("Bytes")
    @DataAmount
    long bytes;

    @Label("Call site")
    @Description("The first frame outside the cache and cell classes")
    String site;

    @Label("Sampling rate")
    @Description(
            "The copies this sample stands for: N at copy.sample=N, about the byte interval divided by bytes when sampling by bytes")
    int samplingRate;
}
