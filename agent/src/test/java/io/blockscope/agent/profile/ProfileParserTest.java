package io.blockscope.agent.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProfileParserTest {

    @Test
    void everyBuiltInProfileParses() {
        List<String> names = Profiles.builtIn();
        assertTrue(names.contains("example-server"), names.toString());
        for (String name : names) {
            assertEquals(name, Profiles.load(name).name());
        }
    }

    @Test
    void exampleServerProfileSaysWhatToCount() {
        Profile profile = Profiles.load("example-server");
        assertEquals(List.of("l1", "l2"), profile.tiers());
        ProbeSpec.BlockGet get = probe(profile, "block-get", ProbeSpec.BlockGet.class);
        assertEquals(ProbeKind.BLOCK_GET, get.kind());
        assertEquals("l1", get.tierFor(List.of("io.blockscope.server.cache.lru.LruBlockCache", "java.lang.Object")));
        assertEquals("l2", get.tierFor(List.of("io.blockscope.server.cache.bucket.BucketCache", "java.lang.Object")));
        assertNull(get.tierFor(List.of("com.acme.Other")));
        assertEquals(
                List.of("io.blockscope.server.cache.BlockCacheKey", "boolean", "boolean", "boolean"),
                get.methods().get(0).parameters());
        ProbeSpec.Copy copy = probe(profile, "cell-copy", ProbeSpec.Copy.class);
        assertEquals(Component.VALUE, copy.componentFor("copyValue"));
        assertTrue(copy.types().get(0).subtypes());
        assertEquals("return.length", copy.value().toString());
        assertEquals(
                Component.BLOCK,
                probe(profile, "block-copy", ProbeSpec.Copy.class).componentFor("copyToHeap"));
        OccupancySpec occupancy =
                probe(profile, "bucket-occupancy", ProbeSpec.Occupancy.class).occupancy();
        assertEquals(
                "this.allocator().indexStatistics()", occupancy.sizeClasses().toString());
        assertTrue(profile.probe("bucket-occupancy").methods().get(0).constructor());
    }

    @Test
    void hbaseProfileCountsCellCopiesAtTheBufferPrimitiveInsideDoors() {
        Profile profile = Profiles.load("hbase2");
        ProbeSpec.Copy primitive = probe(profile, "buffer-copy", ProbeSpec.Copy.class);
        assertTrue(primitive.fromDoor(), "counted under the door's component");
        assertEquals("arg4", primitive.value().toString());
        ProbeSpec.CopyDoor cellUtil = probe(profile, "cellutil-copy", ProbeSpec.CopyDoor.class);
        assertEquals(Component.VALUE, cellUtil.componentFor("cloneValue"));
        assertEquals(Component.ROW, cellUtil.componentFor("copyRow"));
        ProbeSpec.CopyDoor comparator = probe(profile, "comparator-copy", ProbeSpec.CopyDoor.class);
        assertTrue(comparator.namesReceiver());
        assertNull(comparator.componentFor("compareTo"), "the comparator's caller knows the component");
        assertEquals(
                Component.VALUE,
                probe(profile, "cell-copy", ProbeSpec.CopyDoor.class).componentFor("getValueArray"));
        ProbeSpec.CopyDoor tag = probe(profile, "tag-copy", ProbeSpec.CopyDoor.class);
        assertEquals(Component.TAGS, tag.componentFor("cloneValue"), "a cell ACL parsed from an offheap tag");
        assertEquals(Component.TAGS, tag.componentFor("copyValueTo"));
        assertEquals(List.of(TypeSpec.parse("org.apache.hadoop.hbase.Tag")), tag.types(), "the interface, named");
        assertEquals(
                Component.VALUE,
                probe(profile, "cell-compare-copy", ProbeSpec.CopyDoor.class).componentFor("getValueAsBigDecimal"),
                "BigDecimalColumnInterpreter's conversion copies the value's unscaled bytes");
    }

    @Test
    void aCopyDoorNeedsAComponentForEachMethodUnlessItNamesItsReceiver() {
        assertError(
                probe("\"kind\": \"copy-door\", \"types\": [\"a.B\"], \"methods\": [\"c\"]"),
                "profile t: probe 'p': a copy-door probe needs a component: a label (\"value\"), labels by method name"
                        + " ({\"cloneRow\": \"row\"}), or \"names\": \"receiver\" alone");
        assertError(
                probe("\"kind\": \"copy-door\", \"types\": [\"a.B\"], \"methods\": [\"c\"], \"names\": \"self\""),
                "profile t: probe 'p': names must be \"receiver\" (the door names the copy's site after its receiver's"
                        + " class), was 'self'");
        assertError(
                probe("\"kind\": \"copy-door\", \"types\": [\"a.B\"], \"methods\": [\"c\"], \"component\": \"door\""),
                "profile t: probe 'p': component: unknown component 'door'; accepted: row, family, qualifier, value, tags, block");
    }

    @Test
    void autoDetectionNeedsTheDetectClasses() {
        ClassLoader empty = new ClassLoader(null) {};
        assertTrue(Profiles.resolve("auto", empty).isEmpty());
        assertTrue(Profiles.resolve(null, empty).isEmpty());
        assertEquals(
                "example-server",
                Profiles.resolve("example-server", empty).orElseThrow().name());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Profiles.resolve("hbase9", empty))
                .getMessage()
                .startsWith("profile 'hbase9' is neither auto, a built-in profile (example-server"));
    }

    @Test
    void aProfileForAnotherServerNeedsNoNewKinds() {
        // the shape of a refcounted cache (HBase 2.3+): release() on the block itself is a return
        Profile profile = ProfileParser.parse("""
                {"name": "refcounted", "detect": ["com.acme.Cache"], "siteSkip": ["com.acme.cache."],
                 "probes": [
                   {"name": "get", "kind": "block-get", "types": ["com.acme.cache.BucketCache"],
                    "methods": ["getBlock(com.acme.Key,boolean,boolean,boolean)"], "tier": "l2"},
                   {"name": "release", "kind": "block-return", "types": ["subtype:com.acme.Block"],
                    "methods": ["release()"], "value": "this", "when": "this.isSharedMem()", "tier": "l2"},
                   {"name": "copies", "kind": "copy", "types": ["subtype:com.acme.OffheapCell"],
                    "methods": ["getValueArray()"], "value": "return.length", "component": "value"}
                 ]}
                """, "test");
        assertEquals(List.of("l2"), profile.tiers());
        assertEquals(
                "this.isSharedMem()",
                probe(profile, "release", ProbeSpec.BlockReturn.class).when().toString());
        assertEquals(
                ValueRef.Origin.THIS,
                probe(profile, "release", ProbeSpec.BlockReturn.class).value().origin());
    }

    @Test
    void checkoutConditionsAndMatchedReturnsParse() {
        Profile profile = ProfileParser.parse("""
                {"name": "rc", "probes": [
                   {"name": "l1", "kind": "block-get", "types": ["a.Lru"], "methods": ["get"], "value": "return",
                    "checkout": "false", "tier": "l1"},
                   {"name": "l2", "kind": "block-get", "types": ["a.Bucket"], "methods": ["get"], "value": "return",
                    "checkout": "return.isSharedMem()", "tier": "l2"},
                   {"name": "plain", "kind": "block-get", "types": ["a.Other"], "methods": ["get"], "tier": "l2"},
                   {"name": "release", "kind": "block-return", "types": ["a.Block"], "methods": ["release()"],
                    "value": "this", "returns": "checked-out", "tier": "l2"}
                 ]}
                """, "test");
        assertNull(probe(profile, "l1", ProbeSpec.BlockGet.class).checkout().value());
        assertTrue(!probe(profile, "l1", ProbeSpec.BlockGet.class).checkout().constant());
        assertEquals(
                "return.isSharedMem()",
                probe(profile, "l2", ProbeSpec.BlockGet.class)
                        .checkout()
                        .value()
                        .toString());
        assertTrue(
                probe(profile, "plain", ProbeSpec.BlockGet.class).checkout().constant(),
                "every hit is a checkout by default");
        assertTrue(probe(profile, "release", ProbeSpec.BlockReturn.class).returnsCheckedOut());
        assertTrue(profile.matchesReturns());
        assertTrue(!Profiles.load("example-server").matchesReturns(), "the example server counts every return");

        assertError(
                probe("\"kind\": \"block-return\", \"types\": [\"a.B\"], \"methods\": [\"r\"], \"value\": \"this\","
                        + " \"tier\": \"l1\", \"returns\": \"some\""),
                "profile t: probe 'p': returns 'some' must be all");
        assertError(
                probe("\"kind\": \"block-return\", \"types\": [\"a.B\"], \"methods\": [\"r\"], \"value\": \"this\","
                        + " \"tier\": \"l1\", \"checkout\": \"false\""),
                "profile t: probe 'p': field 'checkout' does not apply to a block-return probe");
        assertError(
                probe("\"kind\": \"block-get\", \"types\": [\"a.B\"], \"methods\": [\"g\"], \"tier\": \"l1\","
                        + " \"returns\": \"all\""),
                "profile t: probe 'p': field 'returns' does not apply to a block-get probe");
        assertError(
                probe("\"kind\": \"block-get\", \"types\": [\"a.B\"], \"methods\": [\"g\"], \"tier\": \"l1\","
                        + " \"checkout\": \"no\""),
                "profile t: probe 'p': checkout (true, false or a value): value 'no' must start with");
    }

    @Test
    void hbase2CountsOnlySharedMemoryCheckoutsAndTheirReleases() {
        Profile profile = Profiles.load("hbase2");
        assertEquals(List.of("l1", "l2", "pool"), profile.tiers());
        assertTrue(
                !probe(profile, "block-get-l1", ProbeSpec.BlockGet.class)
                        .checkout()
                        .constant(),
                "on-heap cache hits are never given back");
        // 2.3+: a heap block (refCnt() 0) the BucketCache hands out is never released
        assertEquals(
                "return.refCnt()",
                String.valueOf(probe(profile, "block-get-l2", ProbeSpec.BlockGet.class)
                        .checkout()
                        .value()),
                "BucketCache hits are checkouts while they hold a reference");
        assertTrue(
                probe(profile, "block-release", ProbeSpec.BlockReturn.class).returnsCheckedOut(),
                "release() of blocks no hit handed out is no return");
        assertTrue(!probe(profile, "block-return", ProbeSpec.BlockReturn.class).returnsCheckedOut());
        assertTrue(
                profile.probes().stream()
                        .filter(p -> p instanceof ProbeSpec.BlockGet && !((ProbeSpec.BlockGet) p).pooledBuffers())
                        .allMatch(p -> ((ProbeSpec.BlockGet) p).counted() == Condition.ALWAYS),
                "2.5/2.6 CombinedBlockCache passes updateCacheMetrics=false to its children: never a counted condition");
    }

    @Test
    void hbase2ReadPathModeComesFromTheIoEngine() {
        OccupancySpec occupancy = probe(Profiles.load("hbase2"), "bucket-occupancy", ProbeSpec.Occupancy.class)
                .occupancy();
        assertEquals("this.getIoEngine()", occupancy.readPathMode().toString());
        // BucketCache#getIoEngine() is the engine's toString
        assertEquals("zero-copy", occupancy.readPathModeLabel("ioengine=ByteBufferIOEngine, capacity=268,435,456"));
        assertEquals("zero-copy", occupancy.readPathModeLabel("ioengine=SharedMemoryMmapIOEngine, path=/x"));
        assertEquals("copy", occupancy.readPathModeLabel("ioengine=FileIOEngine, paths=[/data/bucket.cache]"));
        assertEquals("copy", occupancy.readPathModeLabel("ioengine=ExclusiveMemoryMmapIOEngine, path=/x"));
        assertNull(occupancy.readPathModeLabel("something else"), "no label: no mode exported");
        // example-server's value is the label itself
        OccupancySpec example = probe(Profiles.load("example-server"), "bucket-occupancy", ProbeSpec.Occupancy.class)
                .occupancy();
        assertEquals("zero-copy", example.readPathModeLabel("zero-copy"));
    }

    @Test
    void hbase2GiveBackProbesAreAlternatives() {
        Profile profile = Profiles.load("hbase2");
        assertEquals(List.of("block-release"), profile.probe("block-return").alternatives());
        assertEquals(List.of("block-return"), profile.probe("block-release").alternatives());
        assertEquals(List.of("cell-copy"), profile.probe("decoded-cell-copy").alternatives());
        assertEquals(List.of(), profile.probe("block-get-l2").alternatives());
    }

    @Test
    void alternativesAndModeLabelsAreChecked() {
        String base =
                "\"kind\": \"block-return\", \"types\": [\"a.B\"], \"methods\": [\"release()\"], \"value\": \"this\","
                        + " \"tier\": \"l2\"";
        assertError(
                probe(base + ", \"alternatives\": [\"nope\"]"),
                "profile t: probe 'p': alternatives names 'nope', which is not another probe of this profile");
        assertError(
                probe(base + ", \"alternatives\": [\"p\"]"),
                "profile t: probe 'p': alternatives names 'p', which is not another probe");
        String occupancy = "\"kind\": \"occupancy\", \"types\": [\"a.B\"], \"methods\": [\"<init>\"],"
                + " \"occupancy\": {\"readPathMode\": ";
        assertError(
                probe(occupancy + "{\"value\": \"this.engine()\"}}"),
                "profile t: probe 'p': occupancy: readPathMode.labels must be a non-empty object");
        assertError(
                probe(occupancy + "{\"value\": \"this.engine()\", \"labels\": {\"zero-copy\": \"(\"}}}"),
                "profile t: probe 'p': occupancy: readPathMode.labels: zero-copy is not a regular expression");
        assertError(
                probe(occupancy + "{\"value\": \"this.engine()\", \"labelz\": {}}}"),
                "profile t: probe 'p': occupancy: readPathMode");
        assertError(
                probe(occupancy + "{\"value\": \"this.engine()\", \"labels\": {\"Zero Copy\": \"x\"}}}"),
                "profile t: probe 'p': occupancy: readPathMode.labels 'Zero Copy' must match");
    }

    @Test
    void mistakesAreNamedWithTheProbeAndWhatIsAccepted() {
        assertError("{", "profile t is not valid JSON");
        assertError("[]", "profile t must be a JSON object");
        assertError(
                "{\"name\": \"x\", \"probez\": []}",
                "profile t: unknown field 'probez'; accepted: description, detect, name, probes, siteSkip");
        assertError("{\"name\": \"x\"}", "profile t: probes must be a non-empty array");
        assertError(
                probe("\"kind\": \"block-gte\""),
                "profile t: probe 'p': kind: unknown kind 'block-gte'; accepted: block-get, block-return, buffer-take, buffer-return, buffer-touch, copy, copy-door, occupancy");
        assertError(
                probe("\"kind\": \"block-get\", \"types\": [\"a.B\"], \"methods\": [\"get\"]"),
                "profile t: probe 'p': a block-get probe needs a tier");
        assertError(
                probe("\"kind\": \"block-return\", \"types\": [\"a.B\"], \"methods\": [\"put\"], \"tier\": \"l1\""),
                "profile t: probe 'p': value is required for a block-return probe");
        assertError(
                probe(
                        "\"kind\": \"copy\", \"types\": [\"a.B\"], \"methods\": [\"copyRow\", \"copyTags\"], \"value\": \"return.length\","
                                + " \"component\": {\"copyRow\": \"row\"}"),
                "profile t: probe 'p': method copyTags has no component");
        assertError(
                probe(
                        "\"kind\": \"copy\", \"types\": [\"a.B\"], \"methods\": [\"c\"], \"value\": \"return.length\", \"component\": \"bytes\""),
                "profile t: probe 'p': component: unknown component 'bytes'; accepted: row, family, qualifier, value, tags, block");
        assertError(
                probe(
                        "\"kind\": \"copy\", \"types\": [\"a.B\"], \"methods\": [\"c\"], \"value\": \"result.length\", \"component\": \"row\""),
                "profile t: probe 'p': value: value 'result.length' must start with this, return or argN");
        assertError(
                probe("\"kind\": \"block-get\", \"types\": [\"a.B\"], \"methods\": [\"get\"], \"tier\": \"L1!\""),
                "profile t: probe 'p': tier: label 'L1!' must match [a-z0-9][a-z0-9_-]*");
        assertError(
                probe(
                        "\"kind\": \"block-get\", \"types\": [\"a.B\"], \"methods\": [\"get\"], \"tier\": \"l1\", \"component\": \"row\""),
                "profile t: probe 'p': field 'component' does not apply to a block-get probe");
        assertError(
                probe("\"kind\": \"receiver\", \"types\": [\"a.B\"], \"methods\": [\"m\"], \"value\": \"this\""),
                "profile t: probe 'p': field 'value' does not apply to a receiver probe");
        assertError(
                probe(
                        "\"kind\": \"occupancy\", \"types\": [\"a.B\"], \"methods\": [\"<init>\"], \"when\": \"this.on()\","
                                + " \"occupancy\": {}"),
                "profile t: probe 'p': field 'when' does not apply");
        assertError(
                probe(
                        "\"kind\": \"block-get\", \"types\": [\"not a class\"], \"methods\": [\"get\"], \"tier\": \"l1\""),
                "profile t: probe 'p': types: type 'not a class' is not a class name");
        assertError(
                probe("\"kind\": \"block-get\", \"types\": [\"a.B\"], \"methods\": [\"get(int\"], \"tier\": \"l1\""),
                "profile t: probe 'p': methods: method 'get(int' lacks its closing parenthesis");
        assertError(
                probe(
                        "\"kind\": \"occupancy\", \"types\": [\"a.B\"], \"methods\": [\"<init>\"], \"occupancy\": {\"sizeClasses\": \"this.s()\"}"),
                "profile t: probe 'p': occupancy: sizeClasses and sizeClass go together");
        assertError(
                "{\"name\": \"x\", \"probes\": [" + probeBody("block-get") + ", " + probeBody("block-get") + "]}",
                "profile t: probe name 'p' is used twice");
    }

    @Test
    void hbase2CountsAllocatorHeapFallbacksAndSkipsThemWhereBlocksGoBackByReturnBlock() {
        Profile profile = Profiles.load("hbase2");
        ProbeSpec.HeapFallback fallback = (ProbeSpec.HeapFallback) profile.probe("allocator-heap-fallback");
        assertEquals(ProbeKind.HEAP_FALLBACK, fallback.kind());
        assertEquals("arg0", fallback.value().toString());
        assertEquals(
                List.of("<init>", "allocateOnHeap(int)"),
                fallback.methods().stream().map(Object::toString).toList());
        assertEquals(
                "this.minSizeForReservoirUse", fallback.pool().minPooledSize().toString());
        assertEquals("this.isReservoirEnabled()", fallback.pool().pooled().toString());
        assertEquals(
                "this.getPoolAllocationBytes()", fallback.pool().poolBytes().toString());
        // no ByteBuffAllocator before 2.3, where block-return is the give-back probe
        assertEquals(List.of("block-return"), fallback.alternatives());
        assertEquals(List.of("org.apache.hadoop.hbase.io.ByteBuffAllocator"), profile.allocatorTypes());
        assertEquals(List.of(), Profiles.load("example-server").allocatorTypes());
    }

    @Test
    void hbase2TracksWhoseWorkAThreadDoes() {
        Profile profile = Profiles.load("hbase2");
        assertTrue(profile.tracksContext());
        assertEquals("user.getShortName()", profile.callUserPath());
        ProbeSpec.ContextProbe call = probe(profile, "call-context", ProbeSpec.ContextProbe.class);
        assertEquals(ProbeSpec.ContextProbe.Role.CALL, call.role());
        assertEquals("this.call", call.value().toString());
        ProbeSpec.ContextProbe start = probe(profile, "region-context", ProbeSpec.ContextProbe.class);
        assertEquals("this.getRegionInfo().getTable()", start.value().toString());
        for (String name : List.of("region-context", "compaction-context", "flush-context")) {
            assertEquals(
                    "this.getRegionInfo().getEncodedName()",
                    String.valueOf(
                            probe(profile, name, ProbeSpec.ContextProbe.class).region()),
                    name + " reads its region for leak reports");
        }
        assertNull(call.region(), "a call has no region of its own");
        assertEquals(
                ProbeSpec.ContextProbe.Role.REGION_END,
                probe(profile, "region-context-end", ProbeSpec.ContextProbe.class)
                        .role());
        assertEquals(
                0,
                probe(profile, "compaction-context", ProbeSpec.ContextProbe.class)
                        .systemUser());
        assertEquals(
                1, probe(profile, "flush-context", ProbeSpec.ContextProbe.class).systemUser());
        assertEquals(false, Profiles.load("example-server").tracksContext());
    }

    @Test
    void contextProbesSayWhatTheyRead() {
        String where = "\"kind\": \"context\", \"types\": [\"a.B\"], \"methods\": [\"m()\"], ";
        assertError(
                probe(where + "\"role\": \"region-end\", \"value\": \"this\""),
                "profile t: probe 'p': a region-end context probe takes no value");
        assertError(
                probe(where + "\"role\": \"region-start\""),
                "profile t: probe 'p': a region-start context probe needs a value (the call, or the table)");
        assertError(
                probe(where + "\"role\": \"system\", \"value\": \"this\", \"user\": \"bob\""),
                "profile t: probe 'p': a system context probe needs a user, one of [compaction, flush]");
        assertError(
                probe(where + "\"role\": \"call\", \"value\": \"this\", \"user\": \"a..b\""),
                "profile t: probe 'p': a call context probe needs a user: how to read the user's name from the"
                        + " call, e.g. user.getShortName()");
        assertError(
                probe(where + "\"role\": \"region-start\", \"value\": \"this\", \"user\": \"flush\""),
                "profile t: probe 'p': user applies to call and system context probes only");
        assertError(
                probe(where + "\"role\": \"call\", \"value\": \"this\", \"user\": \"user\", \"region\": \"this\""),
                "profile t: probe 'p': region applies to region-start and system context probes only");
        assertError(
                probe(where + "\"role\": \"boss\", \"value\": \"this\""),
                "profile t: probe 'p': role: unknown role 'boss'; accepted: call, region-start, region-end, system");
    }

    @Test
    void hbase2TracksPoolBuffersFromTakeToPutBackInATierOfTheirOwn() {
        Profile profile = Profiles.load("hbase2");
        ProbeSpec.BlockGet take = probe(profile, "pool-buffer-take", ProbeSpec.BlockGet.class);
        ProbeSpec.BlockReturn putBack = probe(profile, "pool-buffer-return", ProbeSpec.BlockReturn.class);
        assertEquals(ProbeKind.BUFFER_TAKE, take.kind());
        assertEquals(ProbeKind.BUFFER_RETURN, putBack.kind());
        assertEquals("return", take.value().toString());
        assertEquals("arg0", putBack.value().toString());
        assertEquals(
                List.of("getBuffer()"),
                take.methods().stream().map(Object::toString).toList());
        assertEquals(
                List.of("putbackBuffer(java.nio.ByteBuffer)"),
                putBack.methods().stream().map(Object::toString).toList());
        assertEquals(Condition.NEVER, take.counted(), "a take is no cache lookup");
        assertTrue(take.checkout().constant(), "every buffer taken must be given back");
        assertTrue(putBack.returnsCheckedOut(), "only buffers a take counted come back");
        assertEquals(java.util.Set.of("pool"), profile.bufferTiers());
        assertEquals(java.util.Set.of(), Profiles.load("example-server").bufferTiers());
        // no pool before 2.3, where block-return is the give-back probe
        assertEquals(List.of("block-return"), take.alternatives());
        assertEquals(List.of("block-return"), putBack.alternatives());
    }

    @Test
    void aTierIsACachesOrAPoolsNotBoth() {
        assertError(
                """
                {"name": "x", "probes": [
                   {"name": "get", "kind": "block-get", "types": ["a.C"], "methods": ["get"], "tier": "l1"},
                   {"name": "take", "kind": "buffer-take", "types": ["a.P"], "methods": ["take"], "value": "return",
                    "tier": "l1"}
                 ]}
                """,
                "profile t: tier 'l1' is used by probe 'get' (blocks) and by a buffer-take or buffer-return probe");
        assertError(
                probe("\"kind\": \"buffer-take\", \"types\": [\"a.P\"], \"methods\": [\"take\"], \"value\": \"return\","
                        + " \"tier\": \"pool\", \"checkout\": \"false\""),
                "profile t: probe 'p': field 'checkout' does not apply to a buffer-take probe");
        assertError(
                probe("\"kind\": \"buffer-return\", \"types\": [\"a.P\"], \"methods\": [\"put\"],"
                        + " \"tier\": \"pool\""),
                "profile t: probe 'p': value is required for a buffer-return probe");
    }

    @Test
    void heapFallbackPoolsAreChecked() {
        String body = "\"kind\": \"heap-fallback\", \"types\": [\"a.B\"], \"methods\": [\"m\"]";
        assertEquals(
                new PoolSpec(null, null, null, null, null, null, null, null),
                ((ProbeSpec.HeapFallback) ProfileParser.parse(probe(body + ", \"value\": \"arg0\""), "t")
                                .probe("p"))
                        .pool());
        assertError(probe(body), "profile t: probe 'p': value is required for a heap-fallback probe (the bytes");
        assertError(
                probe(body + ", \"value\": \"arg0\", \"pool\": {\"size\": \"this.x()\"}"),
                "profile t: probe 'p': pool: unknown field 'size'; accepted: bufferSize, createdBuffers,");
        assertError(
                probe(body + ", \"value\": \"arg0\", \"pool\": {\"pooled\": \"this.a(1)\"}"),
                "profile t: probe 'p': pool: pooled: value 'this.a(1)': step 'a(1)' is neither");
        assertError(
                "{\"name\": \"x\", \"probes\": [" + probeBody("block-get").replace("}", ", \"pool\": {}}") + "]}",
                "profile t: probe 'p': field 'pool' does not apply to a block-get probe");
    }

    @Test
    void valuesParse() {
        assertEquals("arg1", ValueRef.parse("arg1").toString());
        assertEquals(1, ValueRef.parse("arg1").argument());
        ValueRef chain = ValueRef.parse("this.allocator().indexStatistics()");
        assertEquals(
                List.of("allocator", "indexStatistics"),
                chain.steps().stream().map(ValueRef.Step::name).toList());
        assertTrue(ValueRef.parse("return.length").steps().get(0).arrayLength());
        assertTrue(!ValueRef.parse("return.length()").steps().get(0).arrayLength());
        assertThrows(IllegalArgumentException.class, () -> ValueRef.parse("return.length.x()"));
        assertThrows(IllegalArgumentException.class, () -> ValueRef.parse("this.a(1)"));
        ValueRef field = ValueRef.parse("this.minSizeForReservoirUse");
        assertTrue(field.steps().get(0).field(), "a name without parentheses reads a field");
        assertEquals("this.minSizeForReservoirUse", field.toString());
        assertTrue(!ValueRef.parse("this.size()").steps().get(0).field());
        assertEquals(
                List.of("byte[]", "a.B$C"), MethodSpec.parse("m(byte[], a.B$C)").parameters());
        assertNull(MethodSpec.parse("m").parameters());
        assertEquals(List.of(), MethodSpec.parse("m()").parameters());
    }

    @Test
    void commentsAndTrailingCommasAreAllowedAndBrokenJsonSaysWhere() {
        Profile profile = ProfileParser.parse(
                "// a line comment\n{\"name\": \"x\", /* a block comment */\n"
                        + "\"detect\": [\"a.B\",],\n\"probes\": [" + probeBody("block-get") + ",],}",
                "t");
        assertEquals(List.of("a.B"), profile.detect());
        assertEquals(
                List.of("p"), profile.probes().stream().map(ProbeSpec::name).toList());
        // a key given twice is a mistake (which one was meant?), not silently the last one
        assertError(
                "{\"name\": \"x\", \"description\": \"a\", \"description\": \"b\", \"probes\": ["
                        + probeBody("block-get") + "]}",
                "profile t is not valid JSON: Duplicate key (key 'description') at line 1, column ");
        assertError("{\"name\": \"x\",\n  \"probes\": [}", "profile t is not valid JSON: ");
        String message = assertThrows(
                        IllegalArgumentException.class,
                        () -> ProfileParser.parse("{\"name\": \"x\",\n  \"probes\": [}", "t"))
                .getMessage();
        assertTrue(message.endsWith("at line 2, column 14"), message);
        assertError("", "profile t is not valid JSON: No content");
        assertError("\"x\"", "profile t must be a JSON object");
        assertError(probe("\"kind\": 3"), "profile t: probe 'p': field 'kind' must be a string");
        assertError(
                "{\"name\": \"x\", \"probes\": [" + probeBody("block-get").replace("\"l1\"", "{\"a.B\": 1}") + "]}",
                "profile t: probe 'p': tier: the value for 'a.B' must be a label");
    }

    /** The probe of that name, which must be of that kind. */
    private static <T extends ProbeSpec> T probe(Profile profile, String name, Class<T> kind) {
        ProbeSpec probe = profile.probe(name);
        assertTrue(kind.isInstance(probe), name + " is a " + kind.getSimpleName() + ": " + probe);
        return kind.cast(probe);
    }

    private static String probeBody(String kind) {
        return "{\"name\": \"p\", \"kind\": \"" + kind
                + "\", \"types\": [\"a.B\"], \"methods\": [\"get\"], \"tier\": \"l1\"}";
    }

    private static String probe(String fields) {
        return "{\"name\": \"x\", \"probes\": [{\"name\": \"p\", " + fields + "}]}";
    }

    private static void assertError(String json, String expectedStart) {
        String message = assertThrows(IllegalArgumentException.class, () -> ProfileParser.parse(json, "t"))
                .getMessage();
        assertTrue(message.startsWith(expectedStart), "message: " + message);
        assertTrue(!message.contains("\n"), "one line: " + message);
    }
}
