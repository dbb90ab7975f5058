#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs one libFuzzer target for a fixed time and reports it as one test.
#   tests/fuzz/run-fuzzer.sh NAME BINARY SECONDS [SEED_DIR...]
# The corpus the fuzzer grows is kept in build/fuzz/corpus/NAME (it starts from the seed
# directories), crashing inputs go to build/fuzz/artifacts/NAME/, and libFuzzer's own output to
# build/logs/fuzz-NAME.log. Ends with "1 passed, 0 failed" or "0 passed, 1 failed".
set -u
if [ $# -lt 3 ]; then
	echo "usage: $0 NAME BINARY SECONDS [SEED_DIR...]" >&2
	exit 2
fi
name=$1 bin=$2 secs=$3
shift 3
corpus=build/fuzz/corpus/$name
artifacts=build/fuzz/artifacts/$name
log=build/logs/fuzz-$name.log
mkdir -p "$corpus" "$artifacts" build/logs

echo "fuzz-$name: running $bin for ${secs}s (corpus $corpus, log $log)"
"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$artifacts/" "$corpus" "$@" >"$log" 2>&1
status=$?

# libFuzzer's last status line: "#N DONE cov: C ft: F corp: K/S ... exec/s: E".
done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1)
if [ $status -eq 0 ]; then
	echo "fuzz-$name: no crash in ${secs}s: ${done_line:-(no final status line)}"
	echo "1 passed, 0 failed"
	exit 0
fi
echo "fuzz-$name: FAILED (libFuzzer exit status $status); the end of $log:"
tail -n 40 "$log" | sed 's/^/    /'
crash=$(ls -t "$artifacts" 2>/dev/null | head -n 1)
if [ -n "$crash" ]; then
	echo "fuzz-$name: reproduce with: $bin $artifacts/$crash"
fi
echo "0 passed, 1 failed"
exit 1
