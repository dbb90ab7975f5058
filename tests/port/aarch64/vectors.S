/* SPDX-License-Identifier: MIT */
/*
 * The EL1 exception vector table: 16 entries of 128 bytes. No exception is expected (interrupts
 * stay masked, nothing faults on purpose), so every entry calls port_exception(kind), which
 * prints the syndrome and ends the run as failed.
 */
	.macro	vector kind
	.balign	128
	mov	x0, #\kind
	b	port_exception
	.endm

	.section .text.vectors, "ax"
	.balign	2048
	.global	exception_vectors
exception_vectors:
	.irp	kind, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vector	\kind
	.endr
