#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make size: text, data and bss (binutils size, bytes) of the mm/ objects summed, and of the whole
# kernel, in the test kernel's build (with MM_DEBUG) and in the release build, with the share of
# each kernel's symbol table; then each mm/ object in both.  tests/release/size.sh DEBUG_OBJDIR DEBUG_ELF RELEASE_OBJDIR RELEASE_ELF
set -euo pipefail
debug_obj=$1 debug_elf=$2 release_obj=$3 release_elf=$4

# sum OBJ...: "text data bss" added up over the objects.
sum() { size -B "$@" | awk 'NR > 1 { t += $1; d += $2; b += $3 } END { print t, d, b }'; }
line() { # line LABEL TEXT DATA BSS
	printf '%-34s text %7d  data %6d  bss %7d  total %7d\n' "$1" "$2" "$3" "$4" $(($2 + $3 + $4))
}

# The objects of mm/'s sources as they are now (not a stale object of a removed file).
objs=()
for c in mm/*.c; do objs+=("$(basename "$c" .c).o"); done
n=${#objs[@]}
line "mm/ ($n objects), debug (MM_DEBUG)" $(sum "${objs[@]/#/$debug_obj/mm/}")
line "mm/ ($n objects), release" $(sum "${objs[@]/#/$release_obj/mm/}")
# symbols OBJDIR: the line of the symbol table the second link added to that kernel (kernel/ksyms/).
symbols() {
	[ -r "$1/ksyms_table.o" ] || return 0
	line "  its symbol table ($(grep -c '^	{' "$1/ksyms_table.c") names)" $(sum "$1/ksyms_table.o")
}
line "kernel, debug (self-tests, bench)" $(sum "$debug_elf")
symbols "$debug_obj"
line "kernel, release (make kernel)" $(sum "$release_elf")
symbols "$release_obj"
row() { printf '  %-16s %7s %6s %6s    %7s %6s %6s\n' "$@"; }
echo "each mm/ object:     debug (MM_DEBUG)        release"
row "" text data bss text data bss
for o in "${objs[@]}"; do
	row "mm/$o" $(sum "$debug_obj/mm/$o") $(sum "$release_obj/mm/$o")
done
