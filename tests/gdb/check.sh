#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# gdb reads the kernel's debug information without a complaint: for the first and the last byte
# of every address range the DWARF lists (.debug_aranges: one or more per source file, C and
# nasm), `info line *ADDR` must answer with no warning. A range that claims code its file's line
# table does not describe makes gdb warn "pc ... in address map, but not in symtab" at every
# backtrace through it (nasm puts all of a file's sections in one range: boot/higher_half.asm).
# No QEMU: gdb only reads the ELF. Ends with "N passed, N failed".
#   tests/gdb/check.sh KERNEL_ELF
set -u
elf=${1:?usage: tests/gdb/check.sh KERNEL_ELF}
pass=0 fail=0
cmds=$(mktemp)
trap 'rm -f "$cmds"' EXIT

# readelf lists each range as "    ADDRESS LENGTH" (hex, without 0x); empty ranges end a list.
readelf --debug-dump=aranges "$elf" 2>/dev/null |
	awk 'NF == 2 && length($1) == 16 && $1 ~ /^[0-9a-f]+$/ && $2 !~ /^0+$/ {
		printf "info line *0x%s\n", $1
		printf "info line *(0x%s + 0x%s - 1)\n", $1, $2
	}' >"$cmds"
n=$(wc -l <"$cmds")
if [ "$n" -eq 0 ]; then
	echo "gdb: $elf lists no address ranges (built without -g?)"
	echo "0 passed, 1 failed"
	exit 1
fi
out=$(gdb -nx -batch -ex "file $elf" -x "$cmds" 2>&1)
# Each answer is one line that starts with "Line" or "No line"; anything else is a complaint.
complaints=$(grep -vE '^(Line [0-9]+ of|No line number information)' <<<"$out")
answers=$(grep -cE '^(Line [0-9]+ of|No line number information)' <<<"$out")
if [ -n "$complaints" ]; then
	echo "gdb complained about $elf:"
	sort <<<"$complaints" | uniq -c | head -n 20
	fail=$((fail + 1))
else
	pass=$((pass + 1))
fi
if [ "$answers" -eq "$n" ]; then
	pass=$((pass + 1))
else
	echo "gdb answered $answers of $n questions"
	fail=$((fail + 1))
fi
echo "gdb: $((n / 2)) address ranges of $elf looked up, at both ends"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
