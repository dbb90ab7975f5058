# lib/: freestanding C library pieces (the host uses libc's string functions instead).
KERNEL_SRCS += lib/printk.c lib/string.c
HOST_SRCS   += lib/printk.c
