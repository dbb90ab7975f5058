# SPDX-License-Identifier: MIT
# lib/: freestanding C library pieces (the host uses libc's string functions instead).
KERNEL_SRCS += lib/printk.c lib/string.c lib/memmove.c
HOST_SRCS   += lib/printk.c lib/memmove.c

# The host test binary keeps the C library's memmove for every caller and builds ours as
# lib_memmove for the self-tests: a memcpy it called would then be the C library's, which
# AddressSanitizer checks for overlapping ranges.
$(HOST_OBJ)/lib/memmove.o: HOSTCFLAGS += -Dmemmove=lib_memmove
