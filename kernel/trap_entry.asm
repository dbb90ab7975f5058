; SPDX-License-Identifier: MIT
; Exception and interrupt entry stubs: one per vector 0-255 (exceptions 0-31, interrupts above).
; Each pushes a dummy error code where the CPU pushes none, then the vector, saves the general registers into a struct trap_frame
; (kernel/traps.h) and calls trap_handler(frame). The handler may change frame->rip to resume
; elsewhere (kernel/fault_probe.asm relies on that).

extern trap_handler

section .text
bits 64

; The stub of vector v is at trap_stub_area + STUB_SIZE * v, each padded to STUB_SIZE bytes (nasm
; refuses a negative padding, so a stub that grew too long stops the build). No label per stub:
; that keeps 256 names out of the kernel's symbol table (kernel/ksyms/), where a report names a
; stub as trap_stub_area+0xOFF, the vector being OFF / STUB_SIZE.
STUB_SIZE equ 16

%macro TRAP_NOERR 1
	push 0
	push %1
	jmp trap_common
	times STUB_SIZE * (%1 + 1) - ($ - trap_stub_area) int3
%endmacro

%macro TRAP_ERR 1
	push %1
	jmp trap_common
	times STUB_SIZE * (%1 + 1) - ($ - trap_stub_area) int3
%endmacro

; Vectors whose exceptions push an error code: 8, 10-14, 17, 21, 29, 30.
align STUB_SIZE
trap_stub_area:
%assign v 0
%rep 256
%if v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30
	TRAP_ERR v
%else
	TRAP_NOERR v
%endif
%assign v v + 1
%endrep

trap_common:
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	mov rdi, rsp
	mov rbx, rsp                    ; keep the frame; align the stack for the C call
	and rsp, -16
	cld
	call trap_handler
	mov rsp, rbx
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16                     ; vector and error code
	iretq

section .rodata
global trap_stubs
trap_stubs:
%assign v 0
%rep 256
	dq trap_stub_area + STUB_SIZE * v
%assign v v + 1
%endrep
