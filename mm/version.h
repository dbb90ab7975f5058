/* SPDX-License-Identifier: MIT */
/*
 * The version of mm/, for a kernel that lifts it (mm/CHANGELOG.md says what each one changed).
 * Major 0: the API may still change between minor versions. The minor number is the issue of the
 * project that last changed mm/'s API (issue 22: mm/ as a library), so a reader can find the
 * issue behind a version; the patch number counts fixes that change no call.
 */
#ifndef MM_VERSION_H
#define MM_VERSION_H

#define MM_VERSION_MAJOR 0
#define MM_VERSION_MINOR 22
#define MM_VERSION_PATCH 0
#define MM_VERSION_STRING "0.22.0"

/* One number that grows with each version: MM_VERSION >= MM_VERSION_OF(0, 22, 0). */
#define MM_VERSION_OF(major, minor, patch) ((major) * 1000000 + (minor) * 1000 + (patch))
#define MM_VERSION MM_VERSION_OF(MM_VERSION_MAJOR, MM_VERSION_MINOR, MM_VERSION_PATCH)

#endif
