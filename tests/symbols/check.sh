#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every global symbol the mm/ objects define must be declared in a header of mm/ (comments do not
# count): a helper someone forgot to make static, or a variable no header owns, would otherwise
# land in the namespace of every kernel that lifts mm/. Lists the symbols it checked with the
# header that declares each, and ends with "N passed, N failed".
#   tests/symbols/check.sh OBJECT...      (the mm/*.o of a build)
set -u
[ $# -gt 0 ] || { echo "usage: $0 mm/*.o" >&2; echo "0 passed, 1 failed"; exit 2; }
decls=$(mktemp)
trap 'rm -f "$decls"' EXIT
# The headers without their comments, one file name in front of each line.
for h in mm/*.h; do
	gcc -fpreprocessed -dD -E -P "$h" 2>/dev/null | sed "s|^|$h: |"
done >"$decls"

pass=0 fail=0
for sym in $(nm -g --defined-only "$@" | awk 'NF == 3 && $2 ~ /[TDBRCG]/ { print $3 }' | sort -u); do
	where=$(grep -wF -- "$sym" "$decls" | head -n 1 | cut -d: -f1)
	if [ -n "$where" ]; then
		pass=$((pass + 1))
	else
		echo "symbols: $sym is global in mm/ but no header of mm/ declares it (make it static, or declare it)"
		fail=$((fail + 1))
	fi
done
echo "symbols: $((pass + fail)) global symbols defined by $# mm/ objects"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
