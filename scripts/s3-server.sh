#!/usr/bin/env bash
# Runs a command against a throw-away S3-compatible object store on free
# loopback ports: SeaweedFS (`weed server -s3`: master, volume server, filer
# and S3 gateway in one process, data in a temporary directory), with one
# bucket and a random key pair:
#   scripts/s3-server.sh go test -run S3 ./internal/image/
# The command sees HMDP_TEST_S3_ENDPOINT (http://127.0.0.1:PORT),
# HMDP_TEST_S3_BUCKET, HMDP_TEST_S3_ACCESS_KEY, HMDP_TEST_S3_SECRET_KEY and
# HMDP_TEST_S3_REGION (us-east-1; SeaweedFS takes any).
#   S3_BASE_PORT  where the search for free ports starts (21401; they stay
#                 below the kernel's ephemeral range, 32768 and up)
#   WEED          a weed binary to use instead of the cached build
# `weed` is a Go program: the first run builds the pinned version below with
# the Go toolchain (modules from the Go proxy) into
# ${XDG_CACHE_HOME:-~/.cache}/hmdp/bin/weed-<version>, and later runs reuse
# it. That build took 38 minutes on a busy 2-core machine (27 fetching its
# ~500 modules, 11 compiling); starting the server takes about 30 s. It is
# built in a module of its own there, so it never enters this repository's
# go.mod.
set -euo pipefail
weed_version=v0.0.0-20261109003541-7506e5f91cd6
cache=${XDG_CACHE_HOME:-$HOME/.cache}/hmdp
weed=${WEED:-$cache/bin/weed-$weed_version}

if [ ! -x "$weed" ]; then
	echo "building SeaweedFS weed $weed_version into $weed (once)"
	build=$cache/weed-build-$weed_version
	mkdir -p "$build" "$(dirname "$weed")"
	(
		cd "$build"
		[ -f go.mod ] || go mod init hmdp-weed-build >/dev/null 2>&1
		# SeaweedFS's own replace directives (a dependency that moved) hold
		# only in its own module: copy them into this one.
		gomod=$(go mod download -json "github.com/seaweedfs/seaweedfs@$weed_version" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
		grep '^replace ' "$gomod" | sed 's/^replace //; s/ => /=/; s/ v\([0-9]\)/@v\1/' | while read -r r; do go mod edit -replace "$r"; done
		go get "github.com/seaweedfs/seaweedfs/weed@$weed_version"
		CGO_ENABLED=0 go build -o "$weed.tmp" github.com/seaweedfs/seaweedfs/weed
	)
	mv "$weed.tmp" "$weed"
fi

in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ports=()
p=${S3_BASE_PORT:-21401}
while [ "${#ports[@]}" -lt 8 ]; do
	if [ "$p" -ge 32768 ]; then echo "no free loopback ports below 32768" >&2; exit 1; fi
	in_use "$p" || ports+=("$p")
	p=$((p + 1))
done
master=${ports[0]} volume=${ports[1]} filer=${ports[2]} s3=${ports[3]}

dir=$(mktemp -d)
pid=""
cleanup() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT

key=$(head -c 10 /dev/urandom | od -An -tx1 | tr -d ' \n')
secret=$(head -c 20 /dev/urandom | od -An -tx1 | tr -d ' \n')
bucket=hmdp-test
cat >"$dir/s3.json" <<JSON
{"identities": [{"name": "hmdp", "credentials": [{"accessKey": "$key", "secretKey": "$secret"}],
  "actions": ["Admin", "Read", "List", "Tagging", "Write"]}]}
JSON
mkdir -p "$dir/data"
# Small volumes: the default 30 GB limit would reserve far more than a test
# writes.
"$weed" server -dir="$dir/data" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
	-master.port="$master" -master.port.grpc="${ports[4]}" -master.volumeSizeLimitMB=64 \
	-volume.port="$volume" -volume.port.grpc="${ports[5]}" -volume.max=0 \
	-filer -filer.port="$filer" -filer.port.grpc="${ports[6]}" \
	-s3 -s3.port="$s3" -s3.port.grpc="${ports[7]}" -s3.config="$dir/s3.json" \
	>"$dir/weed.log" 2>&1 &
pid=$!

# SeaweedFS names a server host:port.grpcport where the gRPC port is not
# port + 10000.
shell_at=(-master="127.0.0.1:$master.${ports[4]}" -filer="127.0.0.1:$filer.${ports[6]}")
up=""
for _ in $(seq 300); do
	kill -0 "$pid" 2>/dev/null || break
	if curl -s -o /dev/null "http://127.0.0.1:$s3/" &&
		echo "s3.bucket.create -name $bucket" | timeout 20 "$weed" shell "${shell_at[@]}" >"$dir/shell.log" 2>&1 &&
		echo "s3.bucket.list" | timeout 20 "$weed" shell "${shell_at[@]}" 2>/dev/null | grep -q "$bucket"; then
		up=1
		break
	fi
	sleep 0.2
done
if [ -z "$up" ]; then
	echo "SeaweedFS did not come up:" >&2
	tail -40 "$dir/weed.log" >&2 || true
	cat "$dir/shell.log" >&2 2>/dev/null || true
	exit 1
fi
echo "s3 (SeaweedFS) up on http://127.0.0.1:$s3, bucket $bucket"

export HMDP_TEST_S3_ENDPOINT="http://127.0.0.1:$s3" HMDP_TEST_S3_BUCKET=$bucket HMDP_TEST_S3_REGION=us-east-1
export HMDP_TEST_S3_ACCESS_KEY=$key HMDP_TEST_S3_SECRET_KEY=$secret
"$@"
