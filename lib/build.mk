# SPDX-License-Identifier: MIT
# lib/: freestanding C library pieces (the host uses libc's string functions instead).
KERNEL_SRCS += lib/printk.c lib/string.c lib/memmove.c lib/memcpy_memset.c
HOST_SRCS   += lib/printk.c lib/memmove.c lib/memcpy_memset.c

# The host test binary keeps the C library's memmove, memset and memcpy for every caller and
# builds ours as lib_memmove, lib_memset and lib_memcpy for the self-tests: a memcpy they called
# would then be the C library's, which AddressSanitizer checks for overlapping ranges.
$(HOST_OBJ)/lib/memmove.o: HOSTCFLAGS += -Dmemmove=lib_memmove
$(HOST_OBJ)/lib/memcpy_memset.o: HOSTCFLAGS += -Dmemset=lib_memset -Dmemcpy=lib_memcpy
