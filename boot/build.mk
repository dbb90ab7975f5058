# SPDX-License-Identifier: MIT
# boot/: the multiboot2 header and the 32- and 64-bit entry code (nasm).
KERNEL_ASM += boot/multiboot2_header.asm boot/entry.asm boot/page_tables.asm
-include boot/efi/build.mk
