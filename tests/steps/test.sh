#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tests tests/run-steps.sh (what make test runs) with a stand-in for make whose steps pass, fail
# and count: the progress lines, the summary of every step, the total as the last line, the exit
# status and the logs kept. Ends with "N passed, N failed".
set -u
work=${WORK:-build/steps-test}
rm -rf "$work" && mkdir -p "$work"

. "$(dirname "$0")/../tap.sh"

# The stand-in: step "counts" prints a count with a failure, "quiet" passes silently, "broken"
# fails silently, "slow" takes a second.
cat >"$work/make" <<'STANDIN'
#!/usr/bin/env bash
case $2 in
counts) echo "some output"; echo "7 passed, 2 failed"; exit 1 ;;
quiet) exit 0 ;;
broken) echo "error: something"; exit 2 ;;
slow) sleep 1; echo "3 passed, 0 failed" ;;
esac
STANDIN
chmod +x "$work/make"

out=$(RUN_STEPS_MAKE=$work/make RUN_STEPS_LOGS=$work/logs tests/run-steps.sh counts quiet broken slow)
status=$?
check "the exit status is 1 when a step failed" "$([ $status = 1 ]; echo $?)" "exit $status"
check "the last line is the total" "$([ "$(tail -n 1 <<<"$out")" = "11 passed, 3 failed" ]; echo $?)" \
	"last line: $(tail -n 1 <<<"$out")"
for want in '^==== \[1/4\] counts \([0-9]+s elapsed\)$' '^==== \[4/4\] slow \([0-9]+s elapsed\)$' \
	'^==== \[2/4\] quiet: 1 passed, 0 failed \(exit 0\) in [0-9]+s$'; do
	grep -qE "$want" <<<"$out"
	check "a progress line matches $want" $? "output: $out"
done
summary=$(sed -n '/^Steps (4, /,$p' <<<"$out")
while read -r name want; do
	grep -qE "$want" <<<"$summary"
	check "the summary lists $name with its verdict, count and time" $? "summary: $summary"
done <<'LINES'
counts ^  counts +FAILED +7 passed, +2 failed +[0-9]+s$
quiet ^  quiet +passed +1 passed, +0 failed +[0-9]+s$
broken ^  broken +FAILED +0 passed, +1 failed +[0-9]+s$
slow ^  slow +passed +3 passed, +0 failed +[1-9][0-9]*s$
LINES
grep -qx "failed steps: counts broken (logs in $work/logs/)" <<<"$summary"
check "the summary names the failed steps" $? "summary: $summary"
[ -f "$work/logs/step-counts.log" ] && grep -qx "7 passed, 2 failed" "$work/logs/step-counts.log"
check "each step's output is kept in its log" $? "$(ls "$work/logs")"

out=$(RUN_STEPS_MAKE=$work/make RUN_STEPS_LOGS=$work/logs tests/run-steps.sh quiet slow)
status=$?
check "all steps passing: exit 0 and the total last" "$([ $status = 0 ] && [ "$(tail -n 1 <<<"$out")" = "4 passed, 0 failed" ]; echo $?)" \
	"exit $status, last line $(tail -n 1 <<<"$out")"

tap_total
