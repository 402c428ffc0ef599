# Sourced by the agent benchmarks (bench-overhead.sh, bench-cpu.sh): example servers on one table.
# The caller sets SERVER (the server jar), DIR (a scratch folder), HEAP, and an array pids.
# Heaps are pinned (-Xms = -Xmx), as production region servers run: with a growable heap the
# agent's class loading can make G1 shrink it (docs/benchmarks.md, "Agent overhead, steady state").

# Writes a table of $1 rows into $DIR/data.
load_table() {
  java -jar "$SERVER" load --data "$DIR/data" --rows "$1" > /dev/null
}

# Starts server $1 (its log is $DIR/$1.log) with the extra JVM options that follow; adds its pid.
start_server() {
  local name=$1; shift
  java "-Xms$HEAP" "-Xmx$HEAP" -XX:MaxDirectMemorySize=1g "$@" -jar "$SERVER" serve --data "$DIR/data" \
    --port 0 --warm --l2-size 512m > "$DIR/$name.log" 2>&1 &
  pids+=($!)
}

# Waits for server $1 and prints its URL.
server_url() {
  until grep -q "listening on" "$DIR/$1.log"; do sleep 0.5; done
  grep -o 'http://[0-9.:]*' "$DIR/$1.log" | tail -1
}
