#!/usr/bin/env bash
# make soak: a steady mixed load (scripts/load/loadgen soak: browsing,
# logged-in reads, likes, follows, flash-sale attempts, posts fanned out to
# feed subscribers on websockets) against three instances behind HAProxy
# (scripts/lb.sh) on MariaDB and a Redis of its own, sampled by
# scripts/load/soakwatch: heap, resident memory, goroutines and open files
# per instance, Redis keys without a TTL and used_memory, MySQL
# connections. It fails when one of them still grows in the last half of
# the run (the thresholds: soakwatch's measures, docs/OPERATIONS.md 6).
#   SOAK_DURATION (10m) SOAK_RATE (200 requests/s) SOAK_USERS (300 logged in)
#   SOAK_SUBSCRIBERS (200 websockets) SOAK_POST_RATE (0.5 posts/s)
#   SOAK_INTERVAL (10s between samples) SOAK_OUT (bench-out/soak-<UTC time>:
#   soak.html, soak.csv, loadgen.txt, soakwatch.txt) SOAK_REDIS_PORT (21380)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ -z "${LB_URL:-}" ]; then
	# Outside scripts/lb.sh: start a Redis for this run alone (its used_memory
	# and keys are then the run's, not those of whatever else uses the
	# shared one), and run this script again behind the balancer.
	command -v redis-server >/dev/null || { echo "soak: needs redis-server (Debian: apt-get install redis-server)" >&2; exit 1; }
	port=${SOAK_REDIS_PORT:-21380}
	for _ in $(seq 50); do
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
		port=$((port + 1))
	done
	rdir=$(mktemp -d)
	redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly no --dir "$rdir" >"$rdir/redis.log" 2>&1 &
	rpid=$!
	trap 'kill "$rpid" 2>/dev/null || true; wait "$rpid" 2>/dev/null || true; rm -rf "$rdir"' EXIT
	for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
	redis-cli -p "$port" ping >/dev/null || { echo "soak: redis-server did not start:" >&2; cat "$rdir/redis.log" >&2; exit 1; }
	LB_REDIS_ADDR="127.0.0.1:$port" "$root/scripts/lb.sh" "$here/soak.sh"
	exit 0
fi

dur=${SOAK_DURATION:-10m}
rate=${SOAK_RATE:-200}
users=${SOAK_USERS:-300}
subs=${SOAK_SUBSCRIBERS:-200}
outdir=${SOAK_OUT:-$root/bench-out/soak-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$outdir"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd "$here" && go build -o "$out/loadgen" ./loadgen && go build -o "$out/soakwatch" ./soakwatch)

echo "== sending login codes to $users users, $subs subscribers and the admin"
"$out/loadgen" codes -url "$LB_URL" -users "$users" -subs "$subs" -admin "$LB_ADMIN"
grep -h '"msg":"sms code sent"' "$LB_LOGS"/[123].log |
	sed -n 's/.*"phone":"\([0-9]*\)".*"code":"\([0-9]*\)".*/"\1":"\2"/p' | paste -sd, - | sed 's/^/{/; s/$/}/' >"$out/codes.json"

echo "== loadgen soak: $dur at $rate requests/s, $users users, $subs feed subscribers"
"$out/loadgen" soak -url "$LB_URL" -admin "$LB_ADMIN" -codes "$out/codes.json" -users "$users" -subs "$subs" \
	-rate "$rate" -post-rate "${SOAK_POST_RATE:-0.5}" -duration "$dur" -started "$out/started" > >(tee "$outdir/loadgen.txt") &
lgpid=$!
for _ in $(seq 1200); do [ -e "$out/started" ] || ! kill -0 "$lgpid" 2>/dev/null && break; sleep 0.1; done
[ -e "$out/started" ] || { wait "$lgpid" || true; echo "soak: loadgen's setup failed" >&2; exit 1; }

echo "== sampling every ${SOAK_INTERVAL:-10s} for $dur (load average $(cut -d' ' -f1-3 /proc/loadavg))"
rc=0
"$out/soakwatch" -metrics "$LB_METRICS" -pids "$LB_PIDS" -redis "$LB_REDIS_ADDR" -prefix "$LB_REDIS_PREFIX" \
	-mysql-dsn "$LB_MYSQL_DSN" -db "$LB_DB" -interval "${SOAK_INTERVAL:-10s}" -duration "$dur" -out "$outdir" \
	-intro "3 instances behind HAProxy (scripts/lb.sh) on MariaDB and a Redis of the run's own; scripts/load/loadgen soak at $rate requests/s for $dur: $users logged-in users, $subs feed subscribers on websockets, ${SOAK_POST_RATE:-0.5} posts/s. Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores." \
	> >(tee "$outdir/soakwatch.txt") || rc=$?
lgrc=0
wait "$lgpid" || lgrc=$?
echo "== load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); the run's files: $outdir"
[ "$lgrc" = 0 ] || { echo "soak: FAIL: loadgen failed (exit $lgrc)" >&2; exit 1; }
[ "$rc" = 0 ] || { echo "soak: FAIL: see the verdict above" >&2; exit 1; }
echo "soak OK"
