#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Keeps the report's sample of `make run` output true (its "sample" section, written by
# make report SECTIONS=sample): boots what make run boots (the same runner and arguments, without
# the terminal) and compares the KTAP plan, the totals, the summary line and the CPUs line the
# report quotes with the ones the kernel prints. Ends with "N passed, N failed".
#   tests/qemu/readme-sample-test.sh REPORT LOG RUNNER-ARGUMENTS...
set -u
report=$1 log=$2
shift 2

. "$(dirname "$0")/../tap.sh"

tests/qemu/run.sh "$@" --log "$log" >/dev/null
check "make run's machine boots and passes" $? "see $log"

# The sample is the code in the report's sample section.
sample=$(awk '$0 == "<!-- report:sample -->" { on = 1 } $0 == "<!-- /report:sample -->" { on = 0 }
	on && /^```/ { code = !code; next } on && code' "$report")
output=$(tr -d '\r' <"$log")

# same WHAT REPORT-LINE LOG-LINE
same() {
	[ -n "$2" ] && [ "$2" = "$3" ]
	check "the report quotes the $1 make run prints (\"$3\")" $? "the report says \"$2\", the kernel \"$3\""
}
same "KTAP plan" "$(grep -m1 -E '^1\.\.[0-9]+$' <<<"$sample")" "$(grep -m1 -E '^1\.\.[0-9]+$' <<<"$output")"
same "totals" "$(grep -m1 -E '^# Totals: ' <<<"$sample")" "$(grep -m1 -E '^# Totals: ' <<<"$output")"
same "summary" "$(grep -m1 -E '^ktest: summary: ' <<<"$sample")" "$(grep -m1 -E '^ktest: summary: ' <<<"$output")"
same "CPUs line" "$(grep -m1 -E '^smp: Brought up ' <<<"$sample")" "$(grep -m1 -E '^smp: Brought up ' <<<"$output")"

tap_total
