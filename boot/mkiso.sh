#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes a GRUB ISO around a kernel: boot/mkiso.sh KERNEL.elf "COMMAND LINE" OUT.iso
# grub-mkrescue makes it a hybrid that boots from CD-ROM or USB stick, on BIOS (i386-pc) and on
# UEFI (x86_64-efi). The command line goes into grub.cfg through boot/mkgrubcfg.sh, which writes
# it so that GRUB passes it byte for byte, or refuses it (exit status 2) when GRUB cannot.
set -euo pipefail
kernel=$1 cmdline=$2 out=$3
dir=$(dirname "$out")/$(basename "$out" .iso)-root
rm -rf "$dir"
mkdir -p "$dir/boot/grub"
"$(dirname "$0")/mkgrubcfg.sh" strict "$cmdline" "$dir/boot/grub/grub.cfg"
# The image carries the kernel without its DWARF (build/kernel.elf keeps it for gdb): GRUB reads
# the whole file into memory, and at the smallest machine (MEM=7M) the debug sections alone would
# leave it no room. The kernel's own symbol table, which %pS and backtraces use, is in its data.
objcopy --strip-debug "$kernel" "$dir/boot/kernel.elf"
if ! grub-mkrescue -o "$out" "$dir" 2> "$out.log"; then
	cat "$out.log" >&2
	exit 1
fi
