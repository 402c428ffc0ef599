#!/usr/bin/env bash
# Fleet overview at scale: backfills a synthetic fleet of N instances into a local Prometheus
# (Debian's package) and times every query of the Fleet overview dashboard against it.
#   bash dashboards/bench/fleet-bench.sh [INSTANCES=1500] [MINUTES=10] [REPEATS=5]
# Prints a Markdown table. Uses loopback only; cleans up. fleet-bench-thanos.sh is the one docs/benchmarks.md
# quotes: the same queries through Thanos Query in front of two clusters' HA pairs, beside one Prometheus.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
instances="${1:-1500}" minutes="${2:-10}" repeats="${3:-5}"
work="$(mktemp -d)"
pid=""
cleanup() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; rm -rf "$work"; }
trap cleanup EXIT

end=$(( $(date +%s) - 120 ))
echo "== $instances instances, $minutes min of 15 s samples" >&2
python3 "$here/fleet_series.py" "$instances" "$minutes" "$end" > "$work/fleet.om"
promtool tsdb create-blocks-from openmetrics "$work/fleet.om" "$work/tsdb" >/dev/null
rm "$work/fleet.om"
printf 'global:\n  scrape_interval: 15s\n' > "$work/prometheus.yml"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$port" --log.level=warn > "$work/prometheus.log" 2>&1 &
pid=$!
for _ in $(seq 60); do curl -sf "http://127.0.0.1:$port/-/ready" >/dev/null && break; sleep 0.5; done
python3 "$here/fleet_queries.py" "http://127.0.0.1:$port" "$here/../grafana/fleet-overview.json" "$end" "$minutes" "$repeats"
