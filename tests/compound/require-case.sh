#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs a test command that ends with "N passed, N failed" and writes a KTAP log, then also
# requires that one named case ran and passed in that log (a "# SKIP" does not count): a run
# that silently skipped what it exists to show is a failure.
#   tests/compound/require-case.sh LOG CASE COMMAND...
set -u
[ $# -ge 3 ] || { echo "usage: $0 LOG CASE COMMAND..." >&2; echo "0 passed, 1 failed"; exit 2; }
log=$1 case=$2
shift 2

out=$("$@")
status=$?
last=$(printf '%s\n' "$out" | tail -n 1)
printf '%s\n' "$out" | sed '$d'

if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
	pass=${BASH_REMATCH[1]} fail=${BASH_REMATCH[2]}
else
	pass=0 fail=1
fi
# The serial log ends its lines with CR LF.
if tr -d '\r' <"$log" | grep -Eq "^ *ok [0-9]+ $case\$"; then
	echo "require-case: $case ran and passed"
else
	echo "require-case: $case did not run and pass (see $log)"
	fail=$((fail + 1)) status=1
fi
echo "$pass passed, $fail failed"
exit "$status"
