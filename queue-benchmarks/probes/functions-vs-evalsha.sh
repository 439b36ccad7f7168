#!/usr/bin/env bash
# Redis Functions against EVALSHA: Redis CPU per call of the same body (three reads like a claim
# finding nothing), 300,000 calls each way, 10 clients, Redis on core 0 and redis-benchmark on core 1.
# Usage: queue-benchmarks/probes/functions-vs-evalsha.sh (needs redis-server, redis-cli, redis-benchmark, taskset)
DIR=$(cd "$(dirname "$0")" && pwd)
cd "$(mktemp -d)"
set -e
P=6421
taskset -c 0 redis-server --port $P --save '' --appendonly no --daemonize yes --logfile /tmp/qk-functions-probe.log
C="redis-cli -p $P"
until $C PING >/dev/null 2>&1; do sleep 0.1; done
SHA=$($C SCRIPT LOAD "$(cat "$DIR/functions-body.lua")")
{ echo '#!lua name=qkbench'; echo 'redis.register_function("claimprobe", function(KEYS, ARGV)'; cat "$DIR/functions-body.lua"; echo 'end)'; } > fn.lua
$C FUNCTION LOAD REPLACE "$(cat fn.lua)" >/dev/null
cpu() { $C INFO cpu | awk -F: '/used_cpu_(sys|user):/{s+=$2} END{printf "%.6f", s}'; }
N=300000
for round in 1 2 3; do
 for kind in evalsha fcall; do
  b=$(cpu)
  if [ $kind = evalsha ]; then taskset -c 1 redis-benchmark -p $P -n $N -c 10 -q EVALSHA $SHA 3 {q}a {q}b {q}c >/dev/null
  else taskset -c 1 redis-benchmark -p $P -n $N -c 10 -q FCALL claimprobe 3 {q}a {q}b {q}c >/dev/null; fi
  a=$(cpu)
  python3 -c "print('$kind round $round', round(($a-$b)*1e6/$N,2), 'us/call')"
 done
done
$C shutdown nosave || true
