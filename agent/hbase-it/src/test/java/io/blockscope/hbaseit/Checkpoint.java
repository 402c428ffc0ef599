package io.blockscope.hbaseit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** One checkpoint line of a driver: its name and its key=value fields. */
record Checkpoint(String name, Map<String, String> fields) {

    static Checkpoint parse(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        String name = null;
        for (String token : line.substring(line.indexOf("checkpoint=")).split(" ")) {
            int eq = token.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("malformed checkpoint field '" + token + "' in: " + line);
            }
            if (name == null) {
                name = token.substring(eq + 1);
            } else {
                fields.put(token.substring(0, eq), token.substring(eq + 1));
            }
        }
        return new Checkpoint(name, fields);
    }

    String text(String key) {
        String value = fields.get(key);
        if (value == null) {
            throw new AssertionError("checkpoint " + name + " has no field " + key + ": " + fields);
        }
        return value;
    }

    long number(String key) {
        return Long.parseLong(text(key));
    }

    /** The allocator's statistics: slot size to {used, free} slots, for every size class. */
    Map<Long, long[]> slots() {
        Map<Long, long[]> slots = new TreeMap<>();
        fields.forEach((key, value) -> {
            if (key.startsWith("slots.") && key.endsWith(".used")) {
                long size = Long.parseLong(key.substring("slots.".length(), key.length() - ".used".length()));
                slots.put(size, new long[] {Long.parseLong(value), number("slots." + size + ".free")});
            }
        });
        if (slots.isEmpty()) {
            throw new AssertionError("checkpoint " + name + " reports no size classes: " + fields);
        }
        return slots;
    }
}
