/* SPDX-License-Identifier: MIT */
/*
 * The command line options that kernel files the host does not build register (kernel/main.c,
 * kernel/mm_setup.c, kernel/console/screen.c), registered again for the host test binary and the
 * command line fuzzer, so that their cmdline_warn_unknown() knows the release kernel's options as
 * the kernel does. The kernel's own list is checked at boot by test-cmdline and test-release.
 */
#include "kernel/cmdline.h"

CMDLINE_OPTION(bench, "bench", CMDLINE_BARE);
CMDLINE_OPTION(selftests, "ktest", CMDLINE_VALUE);
CMDLINE_OPTION(mm_picture, "mm_picture", CMDLINE_BARE);
CMDLINE_OPTION(screen, "screen", CMDLINE_VALUE);
CMDLINE_OPTION(slub_debug, "slub_debug", CMDLINE_BARE);
