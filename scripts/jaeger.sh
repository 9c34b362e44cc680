#!/usr/bin/env bash
# Runs a command beside a throw-away Jaeger all-in-one (in-memory storage) on
# free loopback ports, then stops it:
#   scripts/jaeger.sh go test -run TestTracingJaeger ./internal/app/
# The command sees HMDP_TEST_OTLP_ENDPOINT (OTLP/HTTP, what HMDP_OTLP_ENDPOINT
# takes) and HMDP_TEST_JAEGER_URL (the query API and UI).
#
# Jaeger is a Go program: it is built once per version from the Go module
# proxy, in a module of its own (not the server's go.mod), into
# $HMDP_CACHE/bin/jaeger-$JAEGER_VERSION (HMDP_CACHE defaults to
# ~/.cache/hmdp). The first build takes minutes; later runs start at once.
set -euo pipefail
version=${JAEGER_VERSION:-v1.76.0}
cache=${HMDP_CACHE:-$HOME/.cache/hmdp}
bin=$cache/bin/jaeger-$version
go=${GO:-go}

if [ ! -x "$bin" ]; then
	build=$cache/jaeger-build
	mkdir -p "$build" "$cache/bin"
	echo "jaeger.sh: building Jaeger $version into $bin (once)" >&2
	(
		cd "$build"
		rm -f go.mod go.sum
		"$go" mod init hmdp.local/jaeger-build >/dev/null 2>&1
		"$go" get "github.com/jaegertracing/jaeger/cmd/jaeger@$version"
		"$go" build -trimpath -o "$bin.tmp" github.com/jaegertracing/jaeger/cmd/jaeger
	)
	mv "$bin.tmp" "$bin"
fi

# free_port: a loopback TCP port nobody listens on now (the kernel's pick
# with python3, else a random one that refuses connections).
free_port() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
		return
	fi
	local p
	while :; do
		p=$((20000 + RANDOM % 30000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
}
otlp=$(free_port)
query=$(free_port)
query_grpc=$(free_port)
health=$(free_port)

dir=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT

cat >"$dir/jaeger.yaml" <<YAML
service:
  extensions: [jaeger_storage, jaeger_query, healthcheckv2]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 100000
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: 127.0.0.1:$query
    grpc:
      endpoint: 127.0.0.1:$query_grpc
  healthcheckv2:
    use_v2: true
    http:
      endpoint: 127.0.0.1:$health
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:$otlp
processors:
  batch:
    timeout: 100ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
YAML

"$bin" --config "$dir/jaeger.yaml" >"$dir/log" 2>&1 &
pid=$!
up=
for _ in $(seq 300); do
	if curl -fsS "http://127.0.0.1:$query/api/services" >/dev/null 2>&1 &&
		curl -sS -o /dev/null "http://127.0.0.1:$otlp/v1/traces" 2>/dev/null; then
		up=1
		break
	fi
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
if [ -z "$up" ]; then
	echo "jaeger.sh: Jaeger did not start:" >&2
	cat "$dir/log" >&2
	exit 1
fi
echo "jaeger up: OTLP http://127.0.0.1:$otlp, query and UI http://127.0.0.1:$query" >&2

export HMDP_TEST_OTLP_ENDPOINT=http://127.0.0.1:$otlp HMDP_TEST_JAEGER_URL=http://127.0.0.1:$query
status=0
"$@" || status=$?
exit $status
