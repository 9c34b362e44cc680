#!/usr/bin/env bash
# Runs a command against a throw-away MariaDB primary and one replica of it,
# each with its own data directory on a free loopback port:
#   scripts/mariadb-replication.sh go test -run Replica ./internal/database/...
# The command sees HMDP_TEST_PRIMARY_DSN and HMDP_TEST_REPLICA_DSN
# (go-sql-driver DSNs without a database name, user root, no password), and
# both engines are stopped and their directories removed when it ends.
# The primary writes a row-based binlog (what internal/binlog tails).
# Needs mariadbd and mariadb-install-db (Debian package mariadb-server).
set -euo pipefail
dir=$(mktemp -d)
pids=()

cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT

# free_port asks the kernel for a port nobody listens on.
free_port() {
	if command -v python3 >/dev/null; then
		python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
		return
	fi
	local p
	while :; do # below the ephemeral range, not listened on
		p=$((20000 + RANDOM % 12000))
		(echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
}

# mariadbd refuses to run as root unless told which user to be.
user_opt=()
if [ "$(id -u)" = 0 ]; then user_opt=(--user=root); fi

start() { # name port server-id extra-options...
	local name=$1 port=$2 id=$3
	shift 3
	mkdir -p "$dir/$name"
	mariadb-install-db --no-defaults "${user_opt[@]}" --datadir="$dir/$name/data" --auth-root-authentication-method=normal \
		--skip-test-db >"$dir/$name/install.log" 2>&1 || { cat "$dir/$name/install.log" >&2; exit 1; }
	mariadbd --no-defaults "${user_opt[@]}" --datadir="$dir/$name/data" --socket="$dir/$name/sock" \
		--port="$port" --bind-address=127.0.0.1 --server-id="$id" --skip-name-resolve \
		--innodb-buffer-pool-size=32M --innodb-log-file-size=16M --performance-schema=off \
		--pid-file="$dir/$name/pid" --log-error="$dir/$name/err.log" "$@" >"$dir/$name/out.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 300); do
		if mariadb --no-defaults -uroot --socket="$dir/$name/sock" -e 'SELECT 1' >/dev/null 2>&1; then return 0; fi
		sleep 0.1
	done
	echo "mariadbd $name on port $port did not start:" >&2
	cat "$dir/$name/err.log" >&2 || true
	exit 1
}

pport=${MARIADB_PRIMARY_PORT:-$(free_port)}
rport=${MARIADB_REPLICA_PORT:-$(free_port)}
start primary "$pport" 1 --log-bin=mysql-bin --binlog-format=ROW --binlog-row-image=FULL
start replica "$rport" 2 --relay-log=relay-bin --read-only=ON

psql() { mariadb --no-defaults -uroot --socket="$dir/primary/sock" "$@"; }
rsql() { mariadb --no-defaults -uroot --socket="$dir/replica/sock" "$@"; }
# root over TCP from 127.0.0.1 (tests), and a replication user.
psql -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
	CREATE USER 'repl'@'127.0.0.1' IDENTIFIED BY 'repl'; GRANT REPLICATION SLAVE ON *.* TO 'repl'@'127.0.0.1';"
rsql -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;"
# The replica starts from the primary's current GTID position: both are
# empty, and the grants above are replayed harmlessly or not at all.
gtid=$(psql -N -e 'SELECT @@gtid_binlog_pos')
rsql -e "SET GLOBAL gtid_slave_pos = '$gtid';
	CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$pport, MASTER_USER='repl', MASTER_PASSWORD='repl',
		MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1;
	START SLAVE;"
for _ in $(seq 100); do
	if rsql -e 'SHOW SLAVE STATUS\G' | grep -q 'Slave_IO_Running: Yes'; then break; fi
	sleep 0.1
done
rsql -e 'SHOW SLAVE STATUS\G' | grep -q 'Slave_IO_Running: Yes' || {
	rsql -e 'SHOW SLAVE STATUS\G' >&2
	cat "$dir/replica/err.log" >&2
	exit 1
}
echo "mariadb primary on 127.0.0.1:$pport, replica on 127.0.0.1:$rport"

export HMDP_TEST_PRIMARY_DSN="root@tcp(127.0.0.1:$pport)/"
export HMDP_TEST_REPLICA_DSN="root@tcp(127.0.0.1:$rport)/"
export MARIADB_PRIMARY_PORT=$pport MARIADB_REPLICA_PORT=$rport
"$@"
