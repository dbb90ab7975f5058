# SPDX-License-Identifier: MIT
# tests/host/: main() of the host test binary, which runs every KTEST_SUITE under sanitizers.
HOST_SRCS += tests/host/main.c
