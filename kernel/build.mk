# kernel/: console, exceptions, boot information, test runner, main.
KERNEL_SRCS += $(wildcard kernel/*.c)
KERNEL_ASM  += $(wildcard kernel/*.asm)
HOST_SRCS   += kernel/ktest.c kernel/cmdline.c $(wildcard kernel/multiboot2.c kernel/bootinfo_print.c)
include kernel/console/build.mk
