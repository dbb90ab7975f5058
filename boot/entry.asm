; SPDX-License-Identifier: MIT
; Kernel entry points.
;   _start32: from GRUB (multiboot2), 32-bit protected mode, paging off, EAX = magic, EBX = info.
;   _start64: from our EFI loader, 64-bit mode on the firmware's identity map, RDI = magic, RSI = info.
; Both check what they can, switch to the boot page tables and our GDT, move to the higher half,
; and jump to higher_half (boot/higher_half.asm), which calls kmain(magic, info_phys) on the kernel
; stack. All the code here is in .boot.text: see boot/higher_half.asm for why.

KERNEL_VMA   equ 0xffffffff80000000
MB2_BOOTLOADER_MAGIC equ 0x36d76289
COM1 equ 0x3f8

extern boot_pml4
extern higher_half             ; boot/higher_half.asm


section .boot.text progbits alloc exec nowrite align=16
bits 32
global _start32
_start32:
	cli
	cld
	mov esp, boot_stack_top
	mov edi, eax                    ; keep magic and info pointer for kmain
	mov esi, ebx

	cmp edi, MB2_BOOTLOADER_MAGIC
	jne .bad_magic
	call cpu_has_long_mode
	test eax, eax
	jz .no_long_mode

	mov eax, cr4
	or eax, 1 << 5                  ; PAE
	mov cr4, eax
	mov eax, boot_pml4
	mov cr3, eax
	mov ecx, 0xc0000080             ; EFER
	rdmsr
	or eax, (1 << 8) | (1 << 11)    ; long mode enable, no-execute enable
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16) | 1 ; paging, write protect, protected mode
	mov cr0, eax
	lgdt [gdt64_pointer]
	jmp GDT_CODE:long_mode_low

.bad_magic:
	mov esi, msg_bad_magic
	jmp fail32
.no_long_mode:
	mov esi, msg_no_long_mode
	jmp fail32

; Returns EAX != 0 when CPUID says the CPU supports long mode.
cpu_has_long_mode:
	pushfd                          ; CPUID exists if EFLAGS.ID can be toggled
	pop eax
	mov ecx, eax
	xor eax, 1 << 21
	push eax
	popfd
	pushfd
	pop eax
	push ecx
	popfd
	xor eax, ecx
	jz .no
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no
	mov eax, 0x80000001
	cpuid
	mov eax, edx
	and eax, 1 << 29                ; LM
	ret
.no:
	xor eax, eax
	ret

; Prints the NUL-terminated string at ESI on COM1 (115200 8N1), then halts for good.
fail32:
	mov dx, COM1 + 1
	mov al, 0
	out dx, al                      ; no interrupts
	mov dx, COM1 + 3
	mov al, 0x80
	out dx, al                      ; DLAB on
	mov dx, COM1
	mov al, 1
	out dx, al                      ; divisor 1 = 115200 baud
	mov dx, COM1 + 1
	mov al, 0
	out dx, al
	mov dx, COM1 + 3
	mov al, 3
	out dx, al                      ; 8N1, DLAB off
.next:
	lodsb
	test al, al
	jz .halt
	mov bl, al
	mov dx, COM1 + 5
.wait:
	in al, dx
	test al, 0x20                   ; transmitter holding register empty
	jz .wait
	mov dx, COM1
	mov al, bl
	out dx, al
	jmp .next
.halt:
	cli
	hlt
	jmp .halt

bits 64
; Entry from the EFI loader: already in long mode, on the firmware's identity-mapped page tables.
global _start64
_start64:
	cli
	cld
	mov r8, rdi                     ; rdmsr/wrmsr clobber edx
	mov ecx, 0xc0000080             ; EFER: the firmware may have left no-execute off
	rdmsr
	or eax, 1 << 11
	wrmsr
	mov rdi, r8
	mov rax, cr0
	or eax, 1 << 16                 ; write protect: read-only pages bind the kernel too
	mov cr0, rax
	mov rax, boot_pml4
	mov cr3, rax                    ; our tables identity-map this code too
	lgdt [gdt64_pointer]
	lea rax, [rel long_mode_low]
	push GDT_CODE
	push rax
	retfq                           ; reload CS with our code segment

long_mode_low:
	mov ax, GDT_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor ax, ax
	mov fs, ax
	mov gs, ax
	mov rax, higher_half
	jmp rax

section .boot.data
align 16
gdt64:
	dq 0
	dq 0x00af9a000000ffff           ; 0x08: 64-bit code, DPL 0
	dq 0x00cf92000000ffff           ; 0x10: data
gdt64_end:
GDT_CODE equ 0x08
GDT_DATA equ 0x10

global gdt64_pointer
gdt64_pointer:
	dw gdt64_end - gdt64 - 1
	dq gdt64

msg_bad_magic:
	db "boot: EAX does not hold the multiboot2 magic 0x36d76289: not started by a multiboot2 loader; halting.", 13, 10, 0
msg_no_long_mode:
	db "boot: this CPU does not support 64-bit long mode (CPUID 0x80000001 EDX bit 29); halting.", 13, 10, 0

section .boot.bss nobits alloc noexec write align=16
	resb 4096
boot_stack_top:

section .bss nobits alloc noexec write align=16
global kernel_stack_bottom, kernel_stack_top
kernel_stack_bottom:
	resb 64 * 1024                  ; the boot CPU's stack
kernel_stack_top:
