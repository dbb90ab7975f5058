#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tests the KTAP parser (tests/qemu/ktap-check.sh) on the logs in tests/qemu/fixtures/: each must
# get the right verdict, the right "N passed, N failed" line, and name the right problem.
# Ends with "N passed, N failed"; exits 1 if any check failed.
set -u
cd "$(dirname "$0")" || exit 1

# fixture | QEMU exit status ("" = not given) | expected exit | expected last line | expected text
checks='
good.log||0|4 passed, 0 failed|0 problems
good.log|33|0|4 passed, 0 failed|0 problems
expected-exception.log||0|4 passed, 0 failed|0 problems
not-ok.log||1|3 passed, 1 failed|not ok  printk/printk_formats_hex_and_octal
not-ok.log|35|1|3 passed, 1 failed|format "%x" gave "DEADBEEF"
missing-plan.log||1|4 passed, 1 failed|FAIL: no top-level plan
short-count.log||1|4 passed, 1 failed|FAIL: suite exceptions: 2 of 3 planned results
crash.log||1|3 passed, 4 failed|FAIL: crash: EXCEPTION: General Protection
truncated.log|124|1|3 passed, 4 failed|FAIL: timed out
no-summary.log||1|4 passed, 1 failed|FAIL: no final summary line
no-ktap.log||1|0 passed, 3 failed|FAIL: no "KTAP version 1" line
bad-number.log||1|4 passed, 1 failed|result numbered 3, expected 2
wrong-summary.log||1|4 passed, 1 failed|the summary says 5 passed, 0 failed
skip-without-reason.log||1|4 passed, 1 failed|printk/printk_formats_pointers: skipped without saying why
good.log|35|1|4 passed, 1 failed|QEMU exit status 35
good.log|0|1|4 passed, 1 failed|guest reset or rebooted
good.log|1|1|4 passed, 1 failed|QEMU failed to start
not-ok.log|33|1|3 passed, 1 failed|exit status 33 says the kernel passed
'

pass=0 fail=0
while IFS='|' read -r fixture status want_exit want_last want_text; do
	[ -n "$fixture" ] || continue
	opts=()
	[ -z "$status" ] || opts=(--exit-status "$status")
	out=$(./ktap-check.sh "${opts[@]}" "fixtures/$fixture" 2>&1)
	got_exit=$?
	got_last=$(tail -n 1 <<<"$out")
	label="$fixture${status:+ (exit status $status)}"
	why=""
	[ "$got_exit" = "$want_exit" ] || why="exit $got_exit, want $want_exit"
	[ "$got_last" = "$want_last" ] || why="$why${why:+; }last line \"$got_last\", want \"$want_last\""
	grep -qF -- "$want_text" <<<"$out" || why="$why${why:+; }no \"$want_text\" in the output"
	if [ -z "$why" ]; then
		echo "ok      ktap-check $label"
		pass=$((pass + 1))
	else
		echo "not ok  ktap-check $label: $why"
		sed 's/^/          /' <<<"$out"
		fail=$((fail + 1))
	fi
done <<<"$checks"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
