#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs each test step (a make target) in turn, shows its output, and adds up the
# "N passed, N failed" line each step ends with. A step that prints no such line counts as one
# test, passed or failed by its exit status. Before each step it prints "[k/N] step (elapsed)";
# at the end, every step with its verdict, its count and its time, then the total line, last.
# Exits 1 if anything failed. Each step's output is kept in build/logs/step-NAME.log.
#
# RUN_STEPS_MAKE (default make) and RUN_STEPS_LOGS (default build/logs) are for its own test.
set -u
make_cmd=${RUN_STEPS_MAKE:-make}
logs=${RUN_STEPS_LOGS:-build/logs}
total_pass=0
total_fail=0
failed_steps=()
summary=()
nsteps=$#
start=$SECONDS
mkdir -p "$logs"

# duration SECONDS: "42s", "3m07s".
duration() {
	if [ "$1" -lt 60 ]; then echo "${1}s"; else printf '%dm%02ds\n' $(($1 / 60)) $(($1 % 60)); fi
}

k=0
for step in "$@"; do
	k=$((k + 1))
	echo "==== [$k/$nsteps] $step ($(duration $((SECONDS - start))) elapsed)"
	log="$logs/step-$step.log"
	step_start=$SECONDS
	$make_cmd --no-print-directory "$step" 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	took=$(duration $((SECONDS - step_start)))
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
	verdict=passed
	if [ "$f" -ne 0 ]; then failed_steps+=("$step"); verdict=FAILED; fi
	echo "==== [$k/$nsteps] $step: $p passed, $f failed (exit $status) in $took"
	summary+=("$(printf '  %-26s %-6s %6d passed, %4d failed  %7s' "$step" "$verdict" "$p" "$f" "$took")")
done
echo
echo "Steps ($nsteps, $(duration $((SECONDS - start))) in all; logs in $logs/step-NAME.log):"
printf '%s\n' "${summary[@]}"
if [ ${#failed_steps[@]} -ne 0 ]; then
	echo "failed steps: ${failed_steps[*]} (logs in $logs/)"
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
