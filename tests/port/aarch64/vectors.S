/* SPDX-License-Identifier: MIT */
/*
 * The EL1 exception vector table: 16 entries of 128 bytes. A synchronous exception at EL1 (entry
 * 4) saves the registers a C call may change and asks port_sync_exception(), which returns when
 * the access is to be retried (a vmalloc migration marker's fault); every other entry calls
 * port_exception(kind), which prints the syndrome and ends the run as failed.
 */
	.macro	vector kind
	.balign	128
	.if	\kind == 4
	b	sync_el1
	.else
	mov	x0, #\kind
	b	port_exception
	.endif
	.endm

	.section .text.vectors, "ax"
	.balign	2048
	.global	exception_vectors
exception_vectors:
	.irp	kind, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vector	\kind
	.endr

/* x0-x18, x29, x30, ELR_EL1 and SPSR_EL1 on the stack (192 bytes: 16-byte aligned). */
sync_el1:
	sub	sp, sp, #192
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x29, [sp, #144]
	mrs	x0, elr_el1
	mrs	x1, spsr_el1
	stp	x30, x0, [sp, #160]
	str	x1, [sp, #176]
	bl	port_sync_exception
	ldr	x1, [sp, #176]
	ldp	x30, x0, [sp, #160]
	msr	spsr_el1, x1
	msr	elr_el1, x0
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x29, [sp, #144]
	add	sp, sp, #192
	eret
