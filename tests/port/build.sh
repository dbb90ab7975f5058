#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the port test as mm/README.md tells a porter to: copies mm/*.c and mm/*.h, and nothing
# else, into OUT/src/mm/, compiles the copy freestanding with only the compiler's own headers
# (so an #include of anything outside mm/ or a C library header fails the build), compiles the
# environment (env.c, main.c) against the C library, and links OUT/port.
# Usage: tests/port/build.sh OUT   (run from the top of the tree; CC defaults to clang)
set -eu
out=${1:?usage: tests/port/build.sh OUT}
cc=${CC:-clang}
flags=(-std=gnu11 -O2 -g -Wall -Wextra -Werror -DMM_DEBUG=1 -DCOMPOUND_FLAGS=64 '-DMM_ENV_H="mm_env.h"')

rm -rf "$out/src" "$out/obj"
mkdir -p "$out/src/mm" "$out/obj"
cp mm/*.c mm/*.h "$out/src/mm/"
cp tests/port/mm_env.h "$out/src/" # the porter's own, as mm/README.md asks

objs=()
for c in "$out"/src/mm/*.c; do
	o=$out/obj/$(basename "${c%.c}").o
	"$cc" "${flags[@]}" -ffreestanding -nostdinc -isystem "$("$cc" -print-file-name=include)" \
		-I "$out/src" -c "$c" -o "$o"
	objs+=("$o")
done
# What the copy leaves undefined must be what mm/arch.h asks the environment for, and no more: a
# function mm/ declared for itself (strlen, say) would otherwise link quietly against the C library.
allowed=' arch_map_memmap arch_random_seed arch_vmalloc_clear_marker arch_vmalloc_map_page arch_vmalloc_set_marker arch_vmalloc_unmap memcpy memmove memset mm_direct_map_offset mm_vmalloc_end mm_vmalloc_start mm_vmemmap_base panic printk snprintf vsnprintf '
ld -r -o "$out/obj/mm-all.o" "${objs[@]}"
for sym in $(nm -u "$out/obj/mm-all.o" | awk '{print $2}'); do
	case $allowed in
	*" $sym "*) ;;
	*) echo "port: mm/ needs $sym, which mm/arch.h does not declare for the environment" >&2; exit 1 ;;
	esac
done

for c in tests/port/env.c tests/port/main.c; do
	o=$out/obj/$(basename "${c%.c}").o
	"$cc" "${flags[@]}" -I "$out/src" -c "$c" -o "$o"
	objs+=("$o")
done
"$cc" "${objs[@]}" -o "$out/port"
