#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The kernel's symbol table (kernel/ksyms/) is right for the kernel that holds it: the table
# generated again from the final ELF is byte for byte the one linked in (so the second link moved
# no code: a third link would change nothing), every sized function of .text is in it at its
# address, and the build's check does catch a table whose addresses are off. Ends with
# "N passed, N failed".
#   tests/ksyms/check.sh KERNEL_ELF TABLE_C
set -u
elf=${1:?usage: tests/ksyms/check.sh KERNEL_ELF TABLE_C} table=${2:?usage: tests/ksyms/check.sh KERNEL_ELF TABLE_C}
pass=0 fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
not_ok() { echo "not ok - $1"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if kernel/ksyms/mktable.sh --check "$elf" "$table"; then
	ok "the table generated from the final kernel is the one linked into it"
else
	not_ok "the table generated from the final kernel is the one linked into it"
fi

# Every function with a size in .text (nm type T or t), by offset from the start of .text. Two
# functions the compiler merged share an offset, and the table keeps one name for it.
read -r start size < <(objdump -h "$elf" | awk '$2 == ".text" { print $4, $3 }')
nm -S --defined-only "$elf" | awk 'NF == 4 && $3 ~ /^[Tt]$/ { print $1, $4 }' |
	while read -r addr name; do
		off=$(( 0x$addr - 0x$start ))
		[ "$off" -ge 0 ] && [ "$off" -lt $(( 0x$size )) ] && printf '%#x %s\n' "$off" "$name"
	done | sed 's/^0x0 /0 /' | sort -u -k1,1 >"$tmp/functions"
sed -nE 's|^\t\{ (0x[0-9a-f]+\|0), 0x[0-9a-f]+ \}, /\* (.*) \*/$|\1|p' "$table" | sort >"$tmp/table"
missing=$(cut -d' ' -f1 "$tmp/functions" | comm -23 - "$tmp/table")
if [ -s "$tmp/functions" ] && [ -z "$missing" ]; then
	ok "all $(wc -l <"$tmp/functions") sized functions of .text are in the table at their offsets"
else
	grep -F -f <(sed 's/$/ /' <<<"$missing") "$tmp/functions" | head -n 5
	not_ok "all sized functions of .text are in the table at their offsets"
fi

# A table one byte off for one symbol must stop the build.
awk '!done && /^\t\{ 0x/ { sub(/\{ 0x/, "{ 0x1"); done = 1 } { print }' "$table" >"$tmp/off.c"
if ! kernel/ksyms/mktable.sh --check "$elf" "$tmp/off.c" 2>/dev/null; then
	ok "the build's check refuses a table whose addresses are off"
else
	not_ok "the build's check refuses a table whose addresses are off"
fi
echo "ksyms: $(grep -c '^	{' "$table") symbols in $table"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
