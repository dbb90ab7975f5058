#!/usr/bin/env bash
# Makes a GRUB ISO around a kernel: boot/mkiso.sh KERNEL.elf "COMMAND LINE" OUT.iso
# grub-mkrescue makes it a hybrid that boots from CD-ROM or USB stick, on BIOS (i386-pc) and on
# UEFI (x86_64-efi); the command line is baked into grub.cfg.
set -euo pipefail
kernel=$1 cmdline=$2 out=$3
dir=$(dirname "$out")/$(basename "$out" .iso)-root
rm -rf "$dir"
mkdir -p "$dir/boot/grub"
cp "$kernel" "$dir/boot/kernel.elf"
# '|' and '&' would confuse sed; a kernel command line has no use for them.
case $cmdline in *'|'* | *'&'* | *'\'*) echo "mkiso: CMDLINE must not contain | & or \\" >&2; exit 2 ;; esac
sed "s|@CMDLINE@|$cmdline|" "$(dirname "$0")/grub.cfg.in" > "$dir/boot/grub/grub.cfg"
if ! grub-mkrescue -o "$out" "$dir" 2> "$out.log"; then
	cat "$out.log" >&2
	exit 1
fi
