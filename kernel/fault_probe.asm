; SPDX-License-Identifier: MIT
; Instructions allowed to fault: trap_handler() moves RIP from each probe instruction to its
; recovery point when a self-test has armed an expectation (kernel/traps.h).

section .text
bits 64

; int probe_read64(const volatile void *addr /* rdi */, uint64_t *val /* rsi */)
global probe_read64, probe_read64_insn, probe_read64_fixup
probe_read64:
probe_read64_insn:
	mov rax, [rdi]
	mov [rsi], rax
	xor eax, eax
	ret
probe_read64_fixup:
	mov eax, -1
	ret

; int probe_write64(volatile void *addr /* rdi */, uint64_t val /* rsi */)
global probe_write64, probe_write64_insn, probe_write64_fixup
probe_write64:
probe_write64_insn:
	mov [rdi], rsi
	xor eax, eax
	ret
probe_write64_fixup:
	mov eax, -1
	ret

; int probe_ud2(void)
global probe_ud2, probe_ud2_insn, probe_ud2_fixup
probe_ud2:
probe_ud2_insn:
	ud2
	xor eax, eax
	ret
probe_ud2_fixup:
	mov eax, -1
	ret
