#!/usr/bin/env bash
# Runs a command against a throw-away Redis Cluster on local ports: 3 masters,
# each with a replica (the topology docs/SCALING.md recommends: a master lost
# is replaced by its replica, automatically, after the node timeout):
#   scripts/redis-cluster.sh go test ./...
# The command sees HMDP_TEST_REDIS_ADDR=127.0.0.1:P1,...,127.0.0.1:P6, and
# HMDP_TEST_REDIS_CLUSTER_DIR: one directory per node, named by its port,
# holding its pid (file pid) and its command line (file args, one argument a
# line), so a fault test can kill -9 a node and start it again; whatever pid
# a pid file names when the command ends is stopped with the cluster.
# A master is replaced by its replica 3 to 4 s after it dies: the node
# timeout is 2000 ms (cluster-node-timeout), then the replica's election.
# Needs redis-server and redis-cli (Debian package redis-server).
set -euo pipefail
# Each node also listens on its port + 10000 (the cluster bus). Both must stay
# below the kernel's ephemeral range (32768 and up by default), or a test's own
# outgoing connection can hold a bus port and the node fails to start.
base=${REDIS_CLUSTER_BASE_PORT:-21001}
dir=$(mktemp -d)
ports=("$base" "$((base + 1))" "$((base + 2))" "$((base + 3))" "$((base + 4))" "$((base + 5))")
pids=()

cleanup() {
	local rc=$?
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	# Nodes a test restarted are not children of this shell: waited for by
	# pid, so none still writes in the directory being removed.
	for f in "$dir"/*/pid; do
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		kill "$pid" 2>/dev/null || continue
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
	done
	wait 2>/dev/null || true
	rm -rf "$dir" || true
	exit "$rc"
}
trap cleanup EXIT

for p in "${ports[@]}"; do
	mkdir -p "$dir/$p"
	args=(redis-server --port "$p" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file "$dir/$p/nodes.conf"
		--cluster-node-timeout 2000 --save "" --appendonly no --dir "$dir/$p" --logfile "$dir/$p/log")
	printf '%s\n' "${args[@]}" >"$dir/$p/args"
	"${args[@]}" &
	pids+=($!)
	echo "$!" >"$dir/$p/pid"
done
for p in "${ports[@]}"; do
	up=""
	for _ in $(seq 200); do
		if redis-cli -p "$p" ping >/dev/null 2>&1; then up=1; break; fi
		sleep 0.1
	done
	if [ -z "$up" ]; then
		echo "redis-server on port $p did not start:" >&2
		cat "$dir/$p/log" >&2 || true
		exit 1
	fi
done
addrs=()
for p in "${ports[@]}"; do addrs+=("127.0.0.1:$p"); done
show_logs() { for p in "${ports[@]}"; do echo "--- redis-server :$p log" >&2; cat "$dir/$p/log" >&2 || true; done; }
if ! redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1; then
	cat "$dir/create.log" >&2
	show_logs
	exit 1
fi
for _ in $(seq 100); do
	redis-cli -p "$base" cluster info | grep -q 'cluster_state:ok' && break
	sleep 0.1
done
redis-cli -p "$base" cluster info | grep -q 'cluster_state:ok' || { echo "cluster did not come up" >&2; show_logs; exit 1; }
# Every replica in sync with its master before anything runs.
for p in "${ports[@]}"; do
	for _ in $(seq 200); do
		role=$(redis-cli -p "$p" info replication)
		if grep -q 'role:master' <<<"$role" || grep -q 'master_link_status:up' <<<"$role"; then continue 2; fi
		sleep 0.1
	done
	echo "replica on port $p did not sync" >&2; show_logs; exit 1
done
echo "redis cluster up on ${addrs[*]}"

export HMDP_TEST_REDIS_ADDR HMDP_TEST_REDIS_CLUSTER_DIR="$dir"
HMDP_TEST_REDIS_ADDR=$(IFS=,; echo "${addrs[*]}")
"$@"
