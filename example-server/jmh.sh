#!/usr/bin/env bash
# Runs JMH benchmarks from the example server's test sources.
#
#   example-server/jmh.sh RowCompare -f 1 -wi 2 -i 3 -prof gc
#   BUILD_SUBDIR=target-h2 example-server/jmh.sh BlockCacheBenchmark -f 1 -t 2
#
# Every argument goes to JMH's own command line (org.openjdk.jmh.Main): a benchmark regex, then
# options; `-h` lists them. The script first compiles the module (test classes included, so the JMH
# annotation processor generates the benchmark list) into BUILD_SUBDIR (default: target), then builds
# the test class path with `mvn dependency:build-classpath`.
#
# Environment:
#   BUILD_SUBDIR   build output folder inside example-server (default: target); use your own when
#                  several people build the same checkout
#   JAVA_HOME      JDK to run the benchmarks on (default: the `java` on PATH), e.g.
#                  JAVA_HOME=/path/to/jdk-25
#   JMH_SKIP_BUILD set to 1 to reuse the classes and class path of the previous run
set -euo pipefail

module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root_dir="$(dirname "$module_dir")"
subdir="${BUILD_SUBDIR:-target}"
out_dir="$module_dir/$subdir"
classpath_file="$out_dir/jmh.classpath"

if [[ $# -eq 0 ]]; then
    echo "usage: $0 BENCHMARK_REGEX [JMH options...]   (e.g. $0 RowCompare -f 1 -wi 2 -i 3 -prof gc)" >&2
    exit 2
fi

if [[ "${JMH_SKIP_BUILD:-0}" != 1 || ! -f "$classpath_file" ]]; then
    (cd "$root_dir" && mvn -q -Dbuild.subdir="$subdir" -pl example-server -am test-compile)
    (cd "$root_dir" && mvn -q -Dbuild.subdir="$subdir" -pl example-server dependency:build-classpath \
        -Dmdep.includeScope=test -Dmdep.outputFile="$classpath_file")
fi

if [[ ! -f "$out_dir/test-classes/META-INF/BenchmarkList" ]]; then
    echo "no JMH benchmarks were generated in $out_dir/test-classes: is jmh-generator-annprocess" \
         "on the test annotation processor path?" >&2
    exit 1
fi

java_bin="java"
if [[ -n "${JAVA_HOME:-}" ]]; then
    java_bin="$JAVA_HOME/bin/java"
fi

exec "$java_bin" -cp "$out_dir/test-classes:$out_dir/classes:$(cat "$classpath_file")" org.openjdk.jmh.Main "$@"
