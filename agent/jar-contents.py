#!/usr/bin/env python3
"""What is in the agent jar: compressed bytes per shaded library (the table in docs/agent.md).

    python3 agent/jar-contents.py [agent/target/blockscope-agent.jar]

Entries are grouped by path prefix; the first matching prefix wins, so the specific ones come first.
"compressed" is the entries' data; "in the file" adds each entry's share of the zip's local headers and
central directory (76 bytes plus twice the name, scaled so the column sums to the file size): with
thousands of small classes that is a sixth of the jar, so fewer entries make a smaller jar too.
"""
import os
import sys
import zipfile

SHADED = "io/blockscope/agent/shaded/"
GROUPS = [
    (SHADED + "exporter/", "blockscope exporter"),
    (SHADED + "net/bytebuddy/", "ByteBuddy"),
    (SHADED + "io/prometheus/metrics/shaded/", "Prometheus client: its own shaded protobuf"),
    (SHADED + "io/prometheus/", "Prometheus client (core, model, formats, jvm)"),
    (SHADED + "org/eclipse/jetty/", "Jetty 12 (server, http, io, util)"),
    (SHADED + "io/netty/handler/ssl/", "Netty: TLS handler"),
    (SHADED + "io/netty/handler/codec/http/", "Netty: HTTP codec"),
    (SHADED + "io/netty/", "Netty: common, buffer, transport, codec, handler"),
    (SHADED + "com/fasterxml/jackson/core/", "jackson-core"),
    (SHADED + "com/fasterxml/jackson/jr/", "jackson-jr"),
    (SHADED + "com/fasterxml/jackson/databind/", "jackson-databind"),
    (SHADED + "com/fasterxml/jackson/annotation/", "jackson-annotations"),
    (SHADED + "org/slf4j/", "slf4j-api"),
    (SHADED + "org/commonmark/", "commonmark-java (core, tables, heading anchors)"),
    ("io/blockscope/agent/", "blockscope agent (own code, profiles, nested bootstrap jar)"),
    ("META-INF/blockscope/", "blockscope agent (own code, profiles, nested bootstrap jar)"),
    ("profiles/", "blockscope agent (own code, profiles, nested bootstrap jar)"),
    ("", "other (manifest, licenses, service files)"),
]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "agent/target/blockscope-agent.jar"
    sizes = {}
    with zipfile.ZipFile(path) as jar:
        for info in jar.infolist():
            group = next(name for prefix, name in GROUPS if info.filename.startswith(prefix))
            compressed, overhead, entries = sizes.get(group, (0, 0, 0))
            sizes[group] = (compressed + info.compress_size, overhead + 76 + 2 * len(info.filename), entries + 1)
    total = os.path.getsize(path)
    data = sum(s[0] for s in sizes.values())
    scale = (total - data) / sum(s[1] for s in sizes.values())
    print("| what | compressed kB | in the file kB | entries |")
    print("|---|---:|---:|---:|")
    for group, (compressed, overhead, entries) in sorted(sizes.items(), key=lambda kv: -kv[1][0]):
        print("| %s | %d | %d | %d |" % (group, round(compressed / 1000), round((compressed + overhead * scale) / 1000), entries))
    count = sum(s[2] for s in sizes.values())
    print("| **jar file** | **%d** | **%d** | **%d** |" % (round(data / 1000), round(total / 1000), count))


if __name__ == "__main__":
    main()
