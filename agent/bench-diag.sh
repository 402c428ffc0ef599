#!/usr/bin/env bash
# Separates the agent's probes from its sampling and JFR costs (docs/benchmarks.md): PE multiget over
# RPC against three servers, interleaved: A no agent; B agent with leak.sample=0, copy.sample=0,
# jfr=off (the probes alone); C agent defaults. Build first (mvn package); SUBDIR picks the build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
SUBDIR=${SUBDIR:-target}
AGENT=agent/$SUBDIR/blockscope-agent.jar; SERVER=example-server/$SUBDIR/blockscope-example-server.jar
dir=$(mktemp -d)
java -jar "$SERVER" load --data "$dir/data" --rows 50000 > /dev/null
start() { local log=$1; shift; java -Xmx1g -XX:MaxDirectMemorySize=1g "$@" -jar "$SERVER" serve --data "$dir/data" --port 0 --warm --l2-size 512m > "$log" 2>&1 & echo $!; }
url() { until grep -q "listening on" "$1"; do sleep 0.5; done; grep -o 'http://[0-9.:]*' "$1" | tail -1; }
a=$(start "$dir/a.log"); b=$(start "$dir/b.log" "-javaagent:$AGENT=127.0.0.1:0,leak.sample=0,copy.sample=0,jfr=off"); c=$(start "$dir/c.log" "-javaagent:$AGENT=127.0.0.1:0")
trap 'kill $a $b $c 2>/dev/null; rm -rf "$dir"' EXIT
ua=$(url "$dir/a.log"); ub=$(url "$dir/b.log"); uc=$(url "$dir/c.log")
echo "A none: $ua  B probes only: $ub  C defaults: $uc"
java -jar "$SERVER" pe --workload multiget --threads 2 --duration 40s --rounds 10 --target "$ua,$ub,$uc" --no-progress --json "$dir/pe.json"
