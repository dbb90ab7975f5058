; SPDX-License-Identifier: MIT
; The first code at the kernel's link address, in the top 2 GiB: both entries of boot/entry.asm
; jump here once the boot page tables map it. Moves to the kernel stack, with no frame before
; kmain's (RBP = 0 ends every backtrace there), and calls kmain(magic, info_phys).
;
; It is a file of its own because nasm's DWARF describes all the code of a file as one address
; range, starting where its first section starts and as long as all its sections together. With
; this code in entry.asm's file, next to .boot.text at 2 MiB, gdb found the address of the code
; here listed for entry.asm, but no line of entry.asm at it, and said so at every backtrace
; through kmain: "pc ... in address map, but not in symtab". One section per nasm file keeps the
; range right (tests/gdb/ checks it).

extern kmain
extern kernel_stack_top
global higher_half

section .text
bits 64
higher_half:
	mov rsp, kernel_stack_top
	xor ebp, ebp
	mov edi, edi                    ; zero-extend magic and info pointer
	mov esi, esi
	call kmain
.hang:
	cli
	hlt
	jmp .hang
