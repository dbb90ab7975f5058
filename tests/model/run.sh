#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the model test (tests/model/) as one step of `make test`: the fast build for OPS
# operations, then the sanitizer build with page poisoning for ASAN_OPS operations (OPS / 10 when
# empty) on seed SEED + 1. Ends with "N passed, N failed".
#   tests/model/run.sh FAST_BINARY ASAN_BINARY SEED OPS [ASAN_OPS]
set -u
if [ $# -lt 4 ]; then
	echo "usage: $0 FAST_BINARY ASAN_BINARY SEED OPS [ASAN_OPS]" >&2
	exit 2
fi
fast=$1 asan=$2 seed=$3 ops=$4 asan_ops=${5:-}
[ -n "$asan_ops" ] || asan_ops=$(( ops / 10 > 0 ? ops / 10 : 1 ))
pass=0 fail=0

run() {
	echo "model: $*"
	if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}
run "$fast" --seed "$seed" --ops "$ops"
run "$asan" --seed "$(printf '%#x' $((seed + 1)))" --ops "$asan_ops" --poison
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
