#!/usr/bin/env bash
# Runs JMH benchmarks from the agent's test sources without the agent attached (the probes'
# bridge called directly, e.g. ProbeCostBenchmark). For the instrumented read path with and without
# the agent attached, use agent/bench.sh jmh.
#
#   agent/jmh.sh ProbeCostBenchmark -prof gc -t 2
#   JMH_RESULT=docs/results/probe-cost.json JMH_LABEL=after agent/jmh.sh ProbeCostBenchmark -prof gc -t 2
#
# With JMH_RESULT, JMH's JSON result is wrapped with the date, JDK, machine line, this command and
# JMH_LABEL (docs/results/wrap-jmh.py) into that file, for docs/results/render.py's jmh tables.
# Every argument goes to JMH's own command line (org.openjdk.jmh.Main). The script compiles the
# agent's test classes (the JMH annotation processor generates the benchmark list) into
# BUILD_SUBDIR (default: target) unless JMH_SKIP_BUILD=1. The class path is the agent's own classes,
# its test classes, the example server's classes and JMH: never the shaded agent jar.
set -euo pipefail
module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root_dir="$(dirname "$module_dir")"
subdir="${BUILD_SUBDIR:-target}"
if [[ $# -eq 0 ]]; then
    echo "usage: $0 BENCHMARK_REGEX [JMH options...]   (e.g. $0 ProbeCostBenchmark -prof gc)" >&2
    exit 2
fi
if [[ "${JMH_SKIP_BUILD:-0}" != 1 ]]; then
    (cd "$root_dir" && mvn -q -Dbuild.subdir="$subdir" -pl agent -am test-compile)
fi
m2=${M2_REPO:-$HOME/.m2/repository}
cp="$module_dir/$subdir/test-classes:$module_dir/$subdir/classes:$module_dir/units/$subdir/classes:$root_dir/example-server/$subdir/classes"
cp="$cp:$m2/org/openjdk/jmh/jmh-core/1.37/jmh-core-1.37.jar:$m2/net/sf/jopt-simple/jopt-simple/5.0.4/jopt-simple-5.0.4.jar"
cp="$cp:$m2/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1.jar"
java_bin="java"
[[ -n "${JAVA_HOME:-}" ]] && java_bin="$JAVA_HOME/bin/java"
if [[ -z "${JMH_RESULT:-}" ]]; then
    exec "$java_bin" -cp "$cp" org.openjdk.jmh.Main "$@"
fi
raw=$(mktemp)
"$java_bin" -cp "$cp" org.openjdk.jmh.Main "$@" -rf json -rff "$raw"
python3 "$root_dir/docs/results/wrap-jmh.py" "$raw" "$JMH_RESULT" "${JMH_LABEL:-run}" "agent/jmh.sh $*"
rm -f "$raw"
