#!/bin/sh
# SPDX-License-Identifier: MIT
# The AP trampoline (boot/ap_trampoline.asm) must use no stack between ap_trampoline and
# ap_trampoline_end: the CPUs started early to initialize struct pages (kernel/memmap_cpus.c) run
# one copy of it at once, and a stack in that page would be shared by all of them. (It once
# changed mode with push + retf, and a CPU could return through the selector another pushed.)
# Usage: tests/trampoline/check.sh [FILE]   (default boot/ap_trampoline.asm)
file=${1:-boot/ap_trampoline.asm}
[ -r "$file" ] || { echo "FAIL: cannot read $file"; echo "0 passed, 1 failed"; exit 1; }
# Each instruction line between the two labels, comments dropped, prefixes (o16/o32/a16/a32,
# lock, rep) skipped; the stack's mnemonics reported with their line numbers.
bad=$(awk '
	/^ap_trampoline:/ { inside = 1; next }
	/^ap_trampoline_end:/ { inside = 0 }
	!inside { next }
	{
		line = $0; sub(/;.*/, "", line)
		n = split(line, w, /[ \t,]+/)
		for (i = 1; i <= n; i++) {
			if (w[i] == "" || w[i] ~ /:$/ || w[i] ~ /^(o16|o32|a16|a32|lock|rep)$/) continue
			if (tolower(w[i]) ~ /^(push|pop|pushf|popf|pushfd|popfd|pusha|popa|pushad|popad|call|ret|retf|retn|iret|iretd|iretq|enter|leave|int|int3|into)$/)
				printf "%d: %s\n", NR, $0
			break
		}
	}' "$file")
if [ -n "$bad" ]; then
	echo "FAIL: $file uses the stack inside the trampoline (many CPUs run one copy at once):"
	echo "$bad"
	echo "0 passed, 1 failed"
	exit 1
fi
grep -q '^ap_trampoline_end:' "$file" || { echo "FAIL: no ap_trampoline_end label in $file"; echo "0 passed, 1 failed"; exit 1; }
echo "ok: $file uses no stack between ap_trampoline and ap_trampoline_end"
echo "1 passed, 0 failed"
