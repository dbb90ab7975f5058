# SPDX-License-Identifier: MIT
# tests/host/: main() of the host test binary, which runs every KTEST_SUITE under sanitizers.
HOST_SRCS += tests/host/main.c
# The command line options of kernel files the host does not build (kernel/cmdline.h).
HOST_SRCS += tests/host/kernel_options.c
