#!/usr/bin/env bash
# A throw-away Prometheus scraping hmdp instances as job "hmdp" every
# second, with the repository's recording and alerting rules
# (deploy/prometheus/hmdp.rules.yml) loaded, on a free loopback port:
#   scripts/prometheus.sh start DIR HOST:PORT...   config, data and log in DIR;
#                                                   prints its URL (also in DIR/url)
#   scripts/prometheus.sh stop DIR
# make load starts one with LOAD_PROMETHEUS (scripts/load/run.sh). Needs the
# prometheus binary (Debian package prometheus, which also has promtool).
#   PROMETHEUS       the binary (prometheus)
#   PROM_PORT        first port tried (21390; the next 50 too, if taken)
#   PROM_INTERVAL    scrape and rule evaluation interval (1s)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start DIR HOST:PORT... | stop DIR" >&2; exit 2; }
shift 2

case "$cmd" in
stop)
	if [ -f "$dir/pid" ]; then
		pid=$(cat "$dir/pid")
		kill "$pid" 2>/dev/null || true
		# its TSDB closes in a moment; do not leave it writing into a removed DIR
		for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		rm -f "$dir/pid"
	fi
	exit 0
	;;
start) ;;
*) echo "usage: $0 start DIR HOST:PORT... | stop DIR" >&2; exit 2 ;;
esac

[ $# -gt 0 ] || { echo "$0 start: no target to scrape" >&2; exit 2; }
bin=${PROMETHEUS:-prometheus}
command -v "$bin" >/dev/null || { echo "$0: $bin not found (Debian: apt-get install prometheus; or set PROMETHEUS)" >&2; exit 1; }
interval=${PROM_INTERVAL:-1s}
mkdir -p "$dir/data"
{
	echo "# written by scripts/prometheus.sh"
	echo "global:"
	echo "  scrape_interval: $interval"
	echo "  evaluation_interval: $interval"
	echo "rule_files:"
	echo "  - $root/deploy/prometheus/hmdp.rules.yml"
	echo "scrape_configs:"
	echo "  - job_name: hmdp"
	echo "    scrape_timeout: $interval"
	echo "    static_configs:"
	echo "      - targets:"
	for t in "$@"; do echo "          - \"$t\""; done
} >"$dir/prometheus.yml"

# The first port nobody answers on; Prometheus would fail at once on a
# taken one, which the wait below reports.
port=${PROM_PORT:-21390}
for _ in $(seq 50); do
	(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
	port=$((port + 1))
done
"$bin" --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
	--storage.tsdb.retention.time=1d --web.listen-address="127.0.0.1:$port" --log.level=warn \
	>"$dir/prometheus.log" 2>&1 &
echo $! >"$dir/pid"
url="http://127.0.0.1:$port"
for _ in $(seq 300); do
	if curl -fs "$url/-/ready" >/dev/null 2>&1; then
		echo "$url" >"$dir/url"
		echo "$url"
		exit 0
	fi
	kill -0 "$(cat "$dir/pid")" 2>/dev/null || break
	sleep 0.1
done
echo "$0: prometheus did not get ready on $url:" >&2
tail -20 "$dir/prometheus.log" >&2
"$0" stop "$dir"
exit 1
