; SPDX-License-Identifier: MIT
; How the other CPUs (application processors) enter the kernel.
;
; A start-up IPI starts a CPU in 16-bit real mode at CS:IP = page:0, page being a 4 KiB page
; below 1 MiB. kernel/smp.c copies ap_trampoline..ap_trampoline_end there and fills in the
; parameter block at its end (struct ap_boot_params). The copy runs at an address only known
; then, so it only uses offsets from its start, and the page's address (CS * 16) computed at run
; time. It goes to 32-bit protected mode with its own flat GDT, then to long mode with a temporary
; page table (the parameter block's pml4) that maps the page at its own address and the kernel at
; its link address, and jumps to ap_entry64 in the kernel, which switches to the kernel's page
; tables and the CPU's stack and calls ap_start(cpu_local).
;
; The copy uses no stack, and every value it stores in its page is the same for every CPU: many
; CPUs run it at once when they start early to initialize struct pages (kernel/memmap_cpus.c).
; (It once changed mode with push + retf on a stack shared at the page's top: a CPU still in real
; mode could then load the 64-bit selector another CPU had pushed further on, and the machine
; triple-faulted, about one boot in ten with 65 CPUs.) The mode changes are far jumps through
; pointers in the page instead.

CODE32 equ 0x08
DATA32 equ 0x10
CODE64 equ 0x18
EFER   equ 0xc0000080

extern ap_start

section .rodata
bits 16
global ap_trampoline, ap_trampoline_end, ap_trampoline_params
align 16
ap_trampoline:
	cli
	cld
	mov ax, cs
	mov ds, ax
	xor ebx, ebx
	mov bx, ax
	shl ebx, 4                              ; EBX = the page's physical address, from here on
	lea eax, [ebx + gdt - ap_trampoline]
	mov [gdtr - ap_trampoline + 2], eax     ; the GDT's linear address
	lea eax, [ebx + protected - ap_trampoline]
	mov [to_protected - ap_trampoline], eax
	lea eax, [ebx + long_mode - ap_trampoline]
	mov [to_long_mode - ap_trampoline], eax
	o32 lgdt [gdtr - ap_trampoline]
	mov eax, cr0
	or eax, 1                               ; protected mode
	mov cr0, eax
	o32 jmp far [to_protected - ap_trampoline] ; into the 32-bit code segment

bits 32
protected:
	mov ax, DATA32
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, 1 << 5                          ; PAE
	mov cr4, eax
	mov eax, [ebx + params - ap_trampoline] ; ap_boot_params.pml4
	mov cr3, eax
	mov ecx, EFER
	rdmsr
	or eax, (1 << 8) | (1 << 11)            ; long mode enable, no-execute enable (the kernel's
	wrmsr                                   ; page tables use NX)
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16)           ; paging, write protect
	mov cr0, eax
	jmp far [ebx + to_long_mode - ap_trampoline] ; into the 64-bit code segment

bits 64
long_mode:
	mov ebx, ebx                            ; the upper halves are undefined after the switch
	mov rcx, [rbx + params - ap_trampoline + 16] ; kernel_cr3
	mov rsi, [rbx + params - ap_trampoline + 24] ; stack_top
	mov rdi, [rbx + params - ap_trampoline + 32] ; cpu_local
	mov rax, [rbx + params - ap_trampoline + 8]  ; entry: ap_entry64
	jmp rax

align 8
gdt:
	dq 0
	dq 0x00cf9a000000ffff                   ; 0x08: 32-bit code, flat
	dq 0x00cf92000000ffff                   ; 0x10: data, flat
	dq 0x00af9a000000ffff                   ; 0x18: 64-bit code
gdt_end:
gdtr:
	dw gdt_end - gdt - 1
	dd 0                                    ; filled in above
; The far jumps' targets (offset, selector); the offsets are filled in above.
to_protected:
	dd 0
	dw CODE32
to_long_mode:
	dd 0
	dw CODE64

; struct ap_boot_params (kernel/smp.c): filled in by the boot CPU before each start-up IPI.
align 8
ap_trampoline_params:
params:
	dd 0                                    ; pml4: the temporary page table, below 4 GiB
	dd 0
	dq 0                                    ; entry
	dq 0                                    ; kernel_cr3
	dq 0                                    ; stack_top
	dq 0                                    ; cpu_local
ap_trampoline_end:

; The kernel side, at its link address, still on the temporary page table: RCX = the kernel's
; CR3, RSI = this CPU's stack top, RDI = its struct cpu_local.
section .text
global ap_entry64
ap_entry64:
	mov cr3, rcx
	mov rsp, rsi
	xor ebp, ebp
	call ap_start                           ; never returns
.hang:
	cli
	hlt
	jmp .hang

; The entry of a CPU started early to initialize struct pages (kernel/memmap_cpus.c), at the
; kernel's link address: RCX = the kernel's CR3, RSI = the first of the CPUs' areas. Many CPUs
; come through the trampoline at once (every value it stores is the same for all), so each takes
; its own area here, before it touches any memory of its own: area number memmap_ap_next++, the
; stack at that area's end. A CPU that finds no area left (the boot CPU closed them) parks
; without touching memory.
extern memmap_ap_start, memmap_ap_next, memmap_ap_nareas, memmap_ap_area_size
global memmap_ap_entry64
memmap_ap_entry64:
	mov cr3, rcx
	mov eax, 1
	lock xadd [rel memmap_ap_next], eax    ; EAX = this CPU's area number
	cmp eax, [rel memmap_ap_nareas]
	jae .park
	mov rdi, [rel memmap_ap_area_size]
	imul rax, rdi                           ; the area's offset
	lea rdi, [rsi + rax]                    ; its start: memmap_ap_start()'s argument
	add rax, [rel memmap_ap_area_size]
	lea rsp, [rsi + rax]                    ; its end: the stack's top
	xor ebp, ebp
	call memmap_ap_start                    ; never returns
.park:
	cli
	hlt
	jmp .park
