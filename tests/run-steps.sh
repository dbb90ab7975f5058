#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs each test step (a make target) in turn, shows its output, and adds up the
# "N passed, N failed" line each step ends with. A step that prints no such line counts as one
# test, passed or failed by its exit status. Ends with the total line; exits 1 if anything failed.
set -u
total_pass=0
total_fail=0
failed_steps=()
mkdir -p build/logs
for step in "$@"; do
	echo "==== $step"
	log="build/logs/step-$step.log"
	make --no-print-directory "$step" 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	line=$(grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -n "$line" ]; then
		p=$(sed -E 's/^([A-Za-z-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2/' <<<"$line")
		f=$(sed -E 's/^([A-Za-z-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\3/' <<<"$line")
	elif [ "$status" -eq 0 ]; then
		p=1 f=0
	else
		p=0 f=1
	fi
	# A step that failed without counting a failure still failed.
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	if [ "$f" -ne 0 ]; then failed_steps+=("$step"); fi
	echo "==== $step: $p passed, $f failed (exit $status)"
done
echo
if [ ${#failed_steps[@]} -ne 0 ]; then
	echo "failed steps: ${failed_steps[*]} (logs in build/logs/)"
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
