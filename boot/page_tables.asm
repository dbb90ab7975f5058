; SPDX-License-Identifier: MIT
; Boot page tables, built by the assembler rather than by code, so the 32-bit (GRUB) and 64-bit
; (EFI loader) entries both just load CR3. They map with 2 MiB pages:
;   - the low 4 GiB at virtual = physical (identity), for the switch to long mode;
;   - the low 4 GiB again at DIRECT_MAP_BASE (the direct map; kernel/paging.c extends it to all RAM);
;   - the low 1 GiB at KERNEL_VMA (-2 GiB), where the kernel is linked.
; They live in the kernel image, so reserving the image reserves them.

PTE_PRESENT equ 1 << 0
PTE_WRITE   equ 1 << 1
PTE_HUGE    equ 1 << 7
PDE_FLAGS   equ PTE_PRESENT | PTE_WRITE | PTE_HUGE
TABLE_FLAGS equ PTE_PRESENT | PTE_WRITE

global boot_pml4, boot_pdpt_low, boot_pdpt_kernel, boot_pd

section .boot.data progbits alloc noexec write align=4096
boot_pml4:
	dq boot_pdpt_low + TABLE_FLAGS          ; 0x0000000000000000: identity
	times 272 dq 0
	dq boot_pdpt_low + TABLE_FLAGS          ; entry 273, 0xffff888000000000: direct map
	times 511 - 274 dq 0
	dq boot_pdpt_kernel + TABLE_FLAGS       ; entry 511, 0xffffff8000000000: kernel

boot_pdpt_low:
	dq boot_pd + 0 * 4096 + TABLE_FLAGS
	dq boot_pd + 1 * 4096 + TABLE_FLAGS
	dq boot_pd + 2 * 4096 + TABLE_FLAGS
	dq boot_pd + 3 * 4096 + TABLE_FLAGS
	times 508 dq 0

boot_pdpt_kernel:
	times 510 dq 0
	dq boot_pd + TABLE_FLAGS                ; 0xffffffff80000000 -> physical 0
	dq 0

; Four page directories: 2048 entries of 2 MiB = 4 GiB.
boot_pd:
%assign i 0
%rep 2048
	dq (i << 21) | PDE_FLAGS
%assign i i + 1
%endrep
