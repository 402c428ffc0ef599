#!/usr/bin/env bash
# Agent overhead benchmarks (docs/benchmarks.md). Builds the agent jar and test classes, then
#   jmh [rounds]        JMH ReadPathBenchmark without/with the agent, interleaved
#   pe  [rounds] [secs] PE multiget (zero-copy, over RPC) against two servers, without and with
#                       the agent, interleaved by PE itself
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
  pe)
    # Three servers on the same table: without the agent, with it (defaults), and with it but the
    # exporter's JFR streaming off (jfr=off), which separates the probes' cost from JFR's. PE runs
    # multiget against all three, interleaving them in every step, so drift cancels out.
    secs=${3:-20}
    rows=${ROWS:-50000}
    dir=$(mktemp -d)
    java -jar "$SERVER" load --data "$dir/data" --rows "$rows" > /dev/null
    start() { # $1 = log file, rest = extra JVM options
      local log=$1; shift
      java -Xmx1g -XX:MaxDirectMemorySize=1g "$@" -jar "$SERVER" serve --data "$dir/data" --port 0 --warm \
        --l2-size 512m > "$log" 2>&1 &
      echo $!
    }
    url() { until grep -q "listening on" "$1"; do sleep 0.5; done; grep -o 'http://[0-9.:]*' "$1" | tail -1; }
    a=$(start "$dir/without.log")
    b=$(start "$dir/with.log" "-javaagent:$AGENT=127.0.0.1:0")
    c=$(start "$dir/nojfr.log" "-javaagent:$AGENT=127.0.0.1:0,jfr=off")
    trap 'kill $a $b $c 2>/dev/null; rm -rf "$dir"' EXIT
    ua=$(url "$dir/without.log"); ub=$(url "$dir/with.log"); uc=$(url "$dir/nojfr.log")
    echo "A without agent: $ua   B with agent: $ub   C with agent, jfr=off: $uc"
    java -jar "$SERVER" pe --workload multiget --threads 2 --duration "${secs}s" --rounds "$rounds" \
      --target "$ua,$ub,$uc" --no-progress --json "$dir/pe.json"
    grep '^\[blockscope\]' "$dir/with.log" | head -3
    ;;
  *) echo "usage: $0 jmh|pe [rounds] [seconds]" >&2; exit 2 ;;
esac
