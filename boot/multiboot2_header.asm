; SPDX-License-Identifier: MIT
; The multiboot2 header GRUB looks for in the kernel's first 32 KiB (multiboot2 spec, section 3.1).
; GRUB loads the ELF segments at their physical addresses and enters _start32 in 32-bit protected mode.

MB2_MAGIC equ 0xe85250d6
MB2_ARCH_I386 equ 0
TAG_OPTIONAL equ 1

extern _start32

section .multiboot2 progbits alloc noexec nowrite align=8
header_start:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd header_end - header_start
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (header_end - header_start))

	; Entry address (type 3): GRUB jumps here; the ELF entry point is the 64-bit entry for our EFI loader.
align 8
	dw 3, 0
	dd 12
	dd _start32

	; Modules page aligned (type 6), so reserving them never splits a page with something else.
align 8
	dw 6, 0
	dd 8

	; Framebuffer (type 5), optional: under UEFI there is no VGA text mode, so ask for a linear
	; framebuffer; 0 means "no preference" for each dimension.
align 8
	dw 5, TAG_OPTIONAL
	dd 20
	dd 0, 0, 32

	; End tag.
align 8
	dw 0, 0
	dd 8
header_end:
