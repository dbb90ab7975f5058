#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the port test as mm/README.md tells a porter to: copies mm/*.c and mm/*.h, and nothing
# else, into OUT/src/mm/, with the example's mm_env.h, env.c and main.c beside it; runs the
# guide's own build line there (the block after "tests/port/build.sh runs this block", with -Werror
# added), so an #include of anything outside mm/ or a C library header fails; checks that mm/
# leaves undefined only what mm/arch.h declares and that no panic() message ends in a newline;
# compiles env.c and main.c against the C library and links OUT/port.
# Usage: tests/port/build.sh OUT   (run from the top of the tree; CC defaults to clang)
set -eu
out=${1:?usage: tests/port/build.sh OUT}
CC=${CC:-clang}
guide=mm/README.md

rm -rf "$out/src"
mkdir -p "$out/src/mm"
cp mm/*.c mm/*.h "$out/src/mm/"
cp tests/port/mm_env.h tests/port/env.c tests/port/main.c "$out/src/"

# The guide's build line, taken literally: cc is the compiler under test, warnings are errors.
line=$(awk '/tests\/port\/build.sh runs this block/ { on = 1; next }
	on && /^```/ { if (inside) exit; inside = 1; next }
	inside' "$guide")
[ -n "$line" ] || { echo "port: $guide has no block marked for tests/port/build.sh" >&2; exit 1; }
cc() { "$CC" -Werror "$@"; }
(cd "$out/src" && eval "$line")

# What the copy leaves undefined must be what mm/arch.h asks the environment for, and no more: a
# function mm/ declared for itself (strlen, say) would otherwise link quietly against the C library.
# env_irqs_off is the example's own: its mm_env.h reads it (mm/README.md, section 3); gcc's
# position-independent code may name _GLOBAL_OFFSET_TABLE_, which the linker provides.
allowed=' arch_map_memmap arch_random_seed arch_run_on_cpus arch_vmalloc_clear_marker arch_vmalloc_map_page arch_vmalloc_set_marker arch_vmalloc_unmap memcpy memmove memset mm_direct_map_offset mm_vmalloc_end mm_vmalloc_start mm_vmemmap_base panic printk snprintf vsnprintf env_irqs_off _GLOBAL_OFFSET_TABLE_ '
mm_objs=()
for c in "$out"/src/mm/*.c; do
	mm_objs+=("$out/src/$(basename "${c%.c}").o")
done
ld -r -o "$out/src/mm-all.o" "${mm_objs[@]}"
for sym in $(nm -u "$out/src/mm-all.o" | awk '{print $2}'); do
	case $allowed in
	*" $sym "*) ;;
	*) echo "port: mm/ needs $sym, which mm/arch.h does not declare for the environment" >&2; exit 1 ;;
	esac
done

# mm/arch.h: panic() gets one line without its newline. Each literal format of a panic() call in
# mm/ must not end in \n.
perl -0777 -ne 'while (/\bpanic\s*\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)/g) {
		my @parts = $1 =~ /"((?:[^"\\]|\\.)*)"/g;
		if ($parts[-1] =~ /\\n$/) { print STDERR "port: $ARGV: panic(\"...$parts[-1]\") ends in a newline (mm/arch.h)\n"; $bad = 1 }
	} END { exit($bad ? 1 : 0) }' mm/*.c mm/*.h

for c in env main; do
	"$CC" -std=gnu11 -O2 -g -Wall -Wextra -Werror -DMM_DEBUG=1 -I "$out/src" -c "$out/src/$c.c" -o "$out/src/$c.o"
done
"$CC" "${mm_objs[@]}" "$out/src/env.o" "$out/src/main.o" -o "$out/port"
