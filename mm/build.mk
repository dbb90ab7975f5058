# SPDX-License-Identifier: MIT
# mm/: the memory manager. All of it goes into the kernel, and builds for the host, where it runs
# over simulated physical memory (tests/mm/host_arch.c).
KERNEL_SRCS += $(wildcard mm/*.c)
HOST_SRCS   += $(wildcard mm/*.c)
