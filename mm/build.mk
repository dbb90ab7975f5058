# SPDX-License-Identifier: MIT
# mm/: the memory manager. All of it goes into the kernel, and builds for the host, where it runs
# over simulated physical memory (tests/mm/host_arch.c).
KERNEL_SRCS += $(wildcard mm/*.c)
HOST_SRCS   += $(wildcard mm/*.c)

# make lib: mm/ as build/lib/libmm.a, its public headers and a pkg-config file (mm/lib.sh;
# mm/README.md, "mm/ as a library"). MM_ENV_H is the environment header it is built with (by
# default the guide's example, one CPU without interrupts); MM_PREFIX renames mm's symbols.
LIB_CC    ?= $(HOSTCC)
MM_ENV_H  ?= tests/port/mm_env.h
MM_PREFIX ?=
.PHONY: lib
lib:
	@CC=$(LIB_CC) mm/lib.sh $(B)/lib $(MM_ENV_H) $(MM_PREFIX)
