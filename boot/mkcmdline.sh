#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes the kernel command line to a file as its exact bytes, with no line end (the direct EFI
# loader's \boot\cmdline.txt, and what the boot images are rebuilt on when it changes):
#   boot/mkcmdline.sh "COMMAND LINE" OUT
# Refuses (exit status 2) a byte that is not printable ASCII, which the loader would refuse at
# boot. Leaves OUT alone when it already holds the command line, so that nothing is rebuilt.
set -euo pipefail
export LC_ALL=C

if [ $# -ne 2 ]; then
	echo "usage: $0 \"COMMAND LINE\" OUT" >&2
	exit 2
fi
cmdline=$1 out=$2
case $cmdline in
*[!\ -~]*)
	echo "mkcmdline: CMDLINE has a byte that is not printable ASCII (a tab, a line end, another" \
		"control character or a non-ASCII character); a kernel command line is one line of" \
		"printable ASCII" >&2
	exit 2 ;;
esac
if ! printf '%s' "$cmdline" | cmp -s - "$out"; then
	printf '%s' "$cmdline" >"$out.tmp"
	mv "$out.tmp" "$out"
fi
