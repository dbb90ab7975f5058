# SPDX-License-Identifier: MIT
# boot/: the multiboot2 header, the 32- and 64-bit entry code and the other CPUs' entry (nasm).
KERNEL_ASM += boot/multiboot2_header.asm boot/entry.asm boot/higher_half.asm boot/page_tables.asm \
              boot/ap_trampoline.asm
include boot/efi/build.mk
