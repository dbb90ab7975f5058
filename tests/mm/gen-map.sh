#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes a synthetic e820 memory map in Linux's log format, for the map replay:
#   tests/mm/gen-map.sh N SPACING_PAGES
# RAM below 640 KiB, then one usable entry from 1 MiB of N * SPACING_PAGES pages, and N reserved
# one-page entries overlapping it, one in the middle of every SPACING_PAGES pages (firmware does
# report reserved ranges inside usable ones), then 64 MiB of plain RAM. N + 3 entries; sanitized,
# N + 2 usable ranges above 1 MiB, so memblock holds N + 3 memory ranges. The map stays below
# 4 GiB (awk's integers).
set -eu
[ $# -eq 2 ] || { echo "usage: $0 N SPACING_PAGES" >&2; exit 2; }
awk -v n="$1" -v sp="$2" 'BEGIN {
	mib = 1048576; page = 4096
	top = mib + n * sp * page
	if (top + 64 * mib > 4294967296) { print "gen-map.sh: keep the map below 4 GiB" > "/dev/stderr"; exit 2 }
	printf "# synthetic: %d reserved pages inside %d MiB of usable RAM, then 64 MiB (tests/mm/gen-map.sh %d %d)\n", n, n * sp * page / mib, n, sp
	printf "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
	printf "BIOS-e820: [mem 0x%016x-0x%016x] usable\n", mib, mib + n * sp * page - 1
	for (i = 0; i < n; i++) {
		b = mib + (i * sp + int(sp / 2)) * page
		printf "BIOS-e820: [mem 0x%016x-0x%016x] reserved\n", b, b + page - 1
	}
	printf "BIOS-e820: [mem 0x%016x-0x%016x] usable\n", top + mib, top + 65 * mib - 1
}'
