#!/bin/bash
# Unauthenticated traffic against the agent while PE runs (issue 18, docs/benchmarks.md). Run from the
# repository root after: mvn -B -ntp -q -pl agent,example-server -am package -DskipTests && mvn -B -ntp -q -pl exporter test-compile
# PAIRS (5), SECONDS_PER_RUN (30), ATTACKERS (8), PAUSE_MS (100: each attacker waits this long after an answer).
set -euo pipefail
PAIRS=${PAIRS:-5}; SECONDS_PER_RUN=${SECONDS_PER_RUN:-30}; ATTACKERS=${ATTACKERS:-8}
W=$(mktemp -d)
printf 'correct horse\n' | java -cp exporter/target/classes io.blockscope.exporter.auth.HashPassword > $W/scrape.hash
java -Xmx1g -XX:MaxDirectMemorySize=1g \
  -javaagent:agent/target/blockscope-agent.jar=127.0.0.1:0,auth.user=prometheus,auth.password.file=$W/scrape.hash \
  -jar example-server/target/blockscope-example-server.jar serve --rows 100000 --warm > $W/server.out 2> $W/server.err &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
for i in $(seq 120); do grep -q 'listening on' $W/server.out 2>/dev/null && break; sleep 1; done
URL=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' $W/server.out)
AGENT=$(sed -n 's/.*metrics at http:\/\/[^:]*:\([0-9]*\)\/metrics.*/\1/p' $W/server.err | head -1)
echo "server $URL agent port $AGENT pid $SERVER"
cpu() { awk '{print $14+$15}' /proc/$SERVER/stat; }
TCK=$(getconf CLK_TCK)
pe() { java -jar example-server/target/blockscope-example-server.jar pe --target "$URL" --workload multiget \
        --threads 4 --duration ${SECONDS_PER_RUN}s --warmup 3s --rounds 1 --json $1 > $1.log 2>&1; }
# the attack alone, no PE: CPU the server burns idle vs. under attack, 30 s each
c0=$(cpu); sleep $SECONDS_PER_RUN; c1=$(cpu)
echo "idle ${SECONDS_PER_RUN}s server-cpu-s $(echo "scale=2; ($c1-$c0)/$TCK" | bc)"
c0=$(cpu)
java -cp exporter/target/test-classes io.blockscope.exporter.security.AuthAttacker $AGENT $SECONDS_PER_RUN $ATTACKERS ${PAUSE_MS:-100} > $W/attack-only.out
c1=$(cpu)
echo "attack-only ${SECONDS_PER_RUN}s server-cpu-s $(echo "scale=2; ($c1-$c0)/$TCK" | bc) $(cat $W/attack-only.out)"
for p in $(seq $PAIRS); do
  for mode in quiet attack; do
    c0=$(cpu)
    if [ $mode = attack ]; then
      bash -c "java -cp exporter/target/test-classes io.blockscope.exporter.security.AuthAttacker $AGENT $((SECONDS_PER_RUN+3)) $ATTACKERS ${PAUSE_MS:-100}; times" > $W/attack-$p.out &
      A=$!
    fi
    pe $W/pe-$mode-$p.json
    [ $mode = attack ] && wait $A
    c1=$(cpu)
    ops=$(python3 -c "import json; print(json.load(open('$W/pe-$mode-$p.json'))['records'][0]['opsPerSec'])")
    echo "pair $p $mode ops/s $ops server-cpu-s $(echo "scale=2; ($c1-$c0)/$TCK" | bc) $( [ $mode = attack ] && tr '\n' ' ' < $W/attack-$p.out)"
  done
done
