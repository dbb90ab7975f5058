/* SPDX-License-Identifier: MIT */
/*
 * Entry of the AArch64 port kernel. The image starts with the arm64 "Image" header, so QEMU's
 * -kernel loads it as it loads Linux: at RAM base + text_offset (0x40080000 on -M virt), in EL1
 * (or EL2), MMU off, with the device tree's physical address in x0. We check that we run where
 * we were linked, drop from EL2 to EL1 if needed, take a stack, clear .bss, install the exception
 * vectors and call port_main(dtb).
 */
	.section .text.head, "ax"
	.global _start
_start:
	b	entry			/* code0: the header's first word is an instruction */
	.long	0			/* code1 */
	.quad	0x80000			/* text_offset: load at a 2 MiB boundary + 512 KiB */
	.quad	__image_size		/* image_size, .bss included (QEMU honours text_offset only if non-zero) */
	.quad	0x2			/* flags: little endian, 4 KiB pages, base 2 MiB aligned */
	.quad	0, 0, 0			/* res2..res4 */
	.ascii	"ARM\x64"		/* magic */
	.long	0			/* res5 */

entry:
	mov	x19, x0			/* the device tree, kept across the calls below */
	adr	x1, _start
	ldr	x2, =_start
	cmp	x1, x2
	b.ne	wrong_place		/* linked for one address (linker.ld): anywhere else is fatal */
	mrs	x1, CurrentEL
	lsr	x1, x1, #2
	cmp	x1, #2
	b.ne	in_el1
	/* EL2: EL1 is AArch64, no traps of its timer; enter it with every exception masked. */
	mov	x1, #(1 << 31)		/* HCR_EL2.RW */
	msr	hcr_el2, x1
	mov	x1, #3
	msr	cnthctl_el2, x1
	msr	cntvoff_el2, xzr
	mov	x1, #0x3c5		/* SPSR: D, A, I, F masked, EL1h */
	msr	spsr_el2, x1
	adr	x1, in_el1
	msr	elr_el2, x1
	eret
in_el1:
	msr	daifset, #0xf		/* no interrupts: nothing here handles one */
	ldr	x1, =boot_stack_top
	mov	sp, x1
	mov	x1, #(3 << 20)		/* CPACR_EL1.FPEN: no trap on FP/SIMD (the C code uses none) */
	msr	cpacr_el1, x1
	ldr	x1, =__bss_start
	ldr	x2, =__bss_end
1:	cmp	x1, x2
	b.hs	2f
	str	xzr, [x1], #8
	b	1b
2:	ldr	x1, =exception_vectors
	msr	vbar_el1, x1
	isb
	mov	x0, x19
	bl	port_main
	b	.			/* port_main() does not return */

/* Loaded somewhere else than linked: no C can run; tell the semihosting host and stop. */
wrong_place:
	mov	x0, #0x18		/* SYS_EXIT */
	adr	x1, exit_failure
	hlt	#0xf000
	b	.

	.balign	8
exit_failure:
	.quad	0x20026, 1		/* ADP_Stopped_ApplicationExit, status 1 */

	.section .bss.stack, "aw", %nobits
	.balign	16
	.space	64 * 1024
boot_stack_top:
