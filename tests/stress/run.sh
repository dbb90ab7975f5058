#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the host stress test (tests/stress/) as one step of `make test`: once per thread count,
# OPS operations in all split evenly between the runs and their threads. A ThreadSanitizer or
# AddressSanitizer report fails its run even if the binary exits 0. Ends with the operations run
# and "N passed, N failed".
#   tests/stress/run.sh BINARY OPS SEED 'THREADS...' [EXTRA_ARGS...]
set -u
if [ $# -lt 4 ]; then
	echo "usage: $0 BINARY OPS SEED 'THREADS...' [EXTRA_ARGS...]" >&2
	exit 2
fi
bin=$1 ops=$2 seed=$3 threads=$4
shift 4
runs=$(wc -w <<<"$threads")
pass=0 fail=0 total=0
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for n in $threads; do
	per=$(( ops / runs / n ))
	start=$(date +%s%N)
	"$bin" --threads "$n" --ops "$per" --seed "$seed" "$@" >"$log" 2>&1
	status=$?
	cat "$log"
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	secs=$((ms / 1000)).$(printf %03d $((ms % 1000)))
	if [ "$status" -eq 0 ] && ! grep -qE '^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: )' "$log"; then
		pass=$((pass + 1))
		total=$((total + per * n))
		echo "stress: $n threads: passed in ${secs} s"
	else
		fail=$((fail + 1))
		echo "stress: $n threads: FAILED (exit $status) in ${secs} s"
	fi
done
echo "stress: $total operations passed in all"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
