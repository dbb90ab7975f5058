#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Passes its input through, adding up every "N passed, N failed" line in it into one such line at
# the end (for a step that runs several test programs). Exits 1 if any failed or none counted.
set -u
pass=0 fail=0 runs=0
while IFS= read -r line; do
	if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
		pass=$((pass + BASH_REMATCH[1])) fail=$((fail + BASH_REMATCH[2])) runs=$((runs + 1))
	else
		printf '%s\n' "$line"
	fi
done
[ "$runs" -gt 0 ] || fail=$((fail + 1))
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
