#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Says whether a guest memory size is one make run, make debug and the QEMU runner accept:
#   tests/qemu/check-mem.sh FIRMWARE MEM
# Prints nothing and exits 0 when it is; else prints one line saying what is accepted and exits 1.
#
# A size needs its unit: QEMU reads a bare number as MiB, so MEM=5 would silently be 5 MiB when
# 5 GiB was more likely meant. The floors are where the boot stops working, measured under QEMU:
# below 7 MiB GRUB (BIOS) runs out of memory loading the kernel, and below 64 MiB OVMF (UEFI) or
# GRUB for UEFI fails. At 7 MiB the kernel runs every self-test; the cases that need more memory
# than that skip, saying why. GRUB needs room beside the kernel, so the BIOS floor rises with the
# kernel's size (it was 5 MiB before the per-CPU lists): the QEMU step at the floor
# (test-qemu-bios-7m) fails when it does, and then this number must follow.
set -u
firmware=$1 mem=$2
min_mib=7
[ "$firmware" = uefi ] && min_mib=64
accepted="a number with a unit K, M, G or T (64M, 1G, 5G ...), at least ${min_mib}M with FIRMWARE=$firmware"
[ "$firmware" = uefi ] || accepted="$accepted (64M with FIRMWARE=uefi)"

if [[ $mem =~ ^[0-9]+$ ]]; then
	echo "MEM=$mem: the size needs a unit (QEMU would read ${mem}M); MEM takes $accepted"
	exit 1
fi
if ! [[ $mem =~ ^([0-9]+)([KkMmGgTt])$ ]] || [ "${#BASH_REMATCH[1]}" -gt 12 ]; then
	echo "MEM=$mem: not a size; MEM takes $accepted"
	exit 1
fi
n=$((10#${BASH_REMATCH[1]}))
case ${BASH_REMATCH[2]} in
[Kk]) kib=$n ;;
[Mm]) kib=$((n * 1024)) ;;
[Gg]) kib=$((n * 1024 * 1024)) ;;
[Tt]) kib=$((n * 1024 * 1024 * 1024)) ;;
esac
if [ "$kib" -lt $((min_mib * 1024)) ]; then
	echo "MEM=$mem: too little memory to boot; MEM takes $accepted"
	exit 1
fi
exit 0
