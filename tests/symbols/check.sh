#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every global symbol the mm/ objects define must be declared in a header of mm/ (comments do not
# count), and every header must be in the documented list of mm/README.md ("What each header is
# for"): a helper someone forgot to make static, or a variable no header owns, would otherwise
# land in the namespace of every kernel that lifts mm/. Ends with "N passed, N failed".
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
for h in mm/*.h; do
	name='`'$(basename "$h")'`'
	if grep '^| ' mm/README.md | grep -qF -- "$name"; then
		pass=$((pass + 1))
	else
		echo "symbols: $h is not in mm/README.md's list of headers"
		fail=$((fail + 1))
	fi
done
nsyms=0
for sym in $(nm -g --defined-only "$@" | awk 'NF == 3 && $2 ~ /[TDBRCG]/ { print $3 }' | sort -u); do
	nsyms=$((nsyms + 1))
	where=$(grep -wF -- "$sym" "$decls" | head -n 1 | cut -d: -f1)
	if [ -n "$where" ]; then
		pass=$((pass + 1))
	else
		echo "symbols: $sym is global in mm/ but no header of mm/ declares it (make it static, or declare it)"
		fail=$((fail + 1))
	fi
done
echo "symbols: $nsyms global symbols defined by $# mm/ objects, $(ls mm/*.h | wc -l) headers listed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
