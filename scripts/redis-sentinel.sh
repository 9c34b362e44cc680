#!/usr/bin/env bash
# Runs a command against a throw-away Redis Sentinel set-up on local ports:
# one master, one replica and three sentinels (quorum 2) watching it as "hmdp".
#   scripts/redis-sentinel.sh go test -run Sentinel ./internal/seckill/
# The command sees HMDP_TEST_REDIS_SENTINELS=127.0.0.1:S1,127.0.0.1:S2,127.0.0.1:S3
# and HMDP_TEST_REDIS_MASTER=hmdp. Needs redis-server and redis-sentinel
# (Debian packages redis-server and redis-sentinel).
set -euo pipefail
base=${REDIS_SENTINEL_BASE_PORT:-21101}
dir=$(mktemp -d)
data=("$base" "$((base + 1))")
sentinels=("$((base + 10))" "$((base + 11))" "$((base + 12))")
pids=()

cleanup() {
	# Tests kill -9 and restart data nodes themselves: stop whatever listens.
	for p in "${data[@]}" "${sentinels[@]}"; do redis-cli -p "$p" shutdown nosave >/dev/null 2>&1 || true; done
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT

wait_up() { # wait_up PORT LOG
	for _ in $(seq 200); do
		redis-cli -p "$1" ping >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "redis on port $1 did not start:" >&2
	cat "$2" >&2 || true
	exit 1
}

for p in "${data[@]}"; do
	mkdir -p "$dir/$p"
	extra=()
	if [ "$p" != "$base" ]; then extra=(--replicaof 127.0.0.1 "$base"); fi
	redis-server --port "$p" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir/$p" --logfile "$dir/$p/log" "${extra[@]}" &
	pids+=($!)
	wait_up "$p" "$dir/$p/log"
done
for p in "${sentinels[@]}"; do
	mkdir -p "$dir/$p"
	# Sentinel rewrites its config file, so each gets its own.
	cat >"$dir/$p/sentinel.conf" <<CONF
port $p
bind 127.0.0.1
dir $dir/$p
logfile $dir/$p/log
sentinel monitor hmdp 127.0.0.1 $base 2
sentinel down-after-milliseconds hmdp 1000
sentinel failover-timeout hmdp 5000
sentinel parallel-syncs hmdp 1
CONF
	redis-sentinel "$dir/$p/sentinel.conf" &
	pids+=($!)
	wait_up "$p" "$dir/$p/log"
done
for _ in $(seq 100); do
	redis-cli -p "$base" info replication | grep -q 'connected_slaves:1' &&
		[ "$(redis-cli -p "${sentinels[0]}" sentinel sentinels hmdp | grep -c '^name$' || true)" = 2 ] && break
	sleep 0.2
done
redis-cli -p "$base" info replication | grep -q 'connected_slaves:1' || { echo "replica did not sync" >&2; exit 1; }
echo "redis sentinel up: master :$base, replica :$((base + 1)), sentinels :${sentinels[*]}"

export HMDP_TEST_REDIS_SENTINELS HMDP_TEST_REDIS_MASTER=hmdp
HMDP_TEST_REDIS_SENTINELS=$(printf '127.0.0.1:%s,' "${sentinels[@]}")
HMDP_TEST_REDIS_SENTINELS=${HMDP_TEST_REDIS_SENTINELS%,}
"$@"
