#!/usr/bin/env bash
# The read path in JMH with and without the agent attached. Builds the agent jar and test classes, then
#   jmh [rounds]        JMH ReadPathBenchmark without/with the agent, interleaved
# For the per-event cost use agent/jmh.sh ProbeCostBenchmark; for the whole agent's cost, fresh JVMs,
# agent/bench-whole.sh (both in docs/benchmarks.md).
# Set SUBDIR to your build folder (default target). Runs take minutes; the machine should be quiet.
set -euo pipefail
cd "$(dirname "$0")/.."
SUBDIR=${SUBDIR:-target}
mode=${1:-jmh}
rounds=${2:-3}
mvn -q -Dbuild.subdir="$SUBDIR" -pl agent -am package -DskipTests
AGENT=agent/$SUBDIR/blockscope-agent.jar
SERVER=example-server/$SUBDIR/blockscope-example-server.jar
M2=${M2_REPO:-$HOME/.m2/repository}
case "$mode" in
  jmh)
    # Only the benchmark, the server and JMH on the class path: never the agent's unshaded classes.
    CP=agent/$SUBDIR/test-classes:$SERVER:$M2/org/openjdk/jmh/jmh-core/1.37/jmh-core-1.37.jar
    CP=$CP:$M2/net/sf/jopt-simple/jopt-simple/5.0.4/jopt-simple-5.0.4.jar:$M2/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1.jar
    java -cp "$CP" io.blockscope.agenttest.bench.AgentOverhead "$AGENT" "$rounds" "127.0.0.1:0"
    ;;
  *) echo "usage: $0 jmh [rounds]" >&2; exit 2 ;;
esac
