#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Keeps README.md's sample of `make run` output true: boots what make run boots (the same runner
# and arguments, without the terminal) and compares the KTAP plan, the totals and the summary
# line the README quotes with the ones the kernel prints. Ends with "N passed, N failed".
#   tests/qemu/readme-sample-test.sh README LOG RUNNER-ARGUMENTS...
set -u
readme=$1 log=$2
shift 2

. "$(dirname "$0")/../tap.sh"

tests/qemu/run.sh "$@" --log "$log" >/dev/null
check "make run's machine boots and passes" $? "see $log"

# The sample is the indented block after "## What the output means".
sample=$(awk '/^## What the output means/ { on = 1; next } on && /^## / { exit } on && /^    / { print substr($0, 5) }' "$readme")
output=$(tr -d '\r' <"$log")

# same WHAT README-LINE LOG-LINE
same() {
	[ -n "$2" ] && [ "$2" = "$3" ]
	check "README quotes the $1 make run prints (\"$3\")" $? "README says \"$2\", the kernel \"$3\""
}
same "KTAP plan" "$(grep -m1 -E '^1\.\.[0-9]+$' <<<"$sample")" "$(grep -m1 -E '^1\.\.[0-9]+$' <<<"$output")"
same "totals" "$(grep -m1 -E '^# Totals: ' <<<"$sample")" "$(grep -m1 -E '^# Totals: ' <<<"$output")"
same "summary" "$(grep -m1 -E '^ktest: summary: ' <<<"$sample")" "$(grep -m1 -E '^ktest: summary: ' <<<"$output")"
same "CPUs line" "$(grep -m1 -E '^smp: Brought up ' <<<"$sample")" "$(grep -m1 -E '^smp: Brought up ' <<<"$output")"

tap_total
