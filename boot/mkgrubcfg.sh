#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes GRUB's grub.cfg (from boot/grub.cfg.in) with a kernel command line GRUB passes byte for
# byte, or refuses one it cannot:
#   boot/mkgrubcfg.sh strict|or-refuse-at-boot "COMMAND LINE" OUT.cfg
#
# GRUB's multiboot2 command makes the kernel's command line from its arguments after the kernel's
# path (grub_create_loader_cmdline(), grub-core/lib/cmdline.c): it joins them with one space, puts
# a backslash before every ' " and \, and wraps an argument that has a space in double quotes. So
# the command line is cut at every space into arguments (n spaces make n + 1 of them, some empty:
# that is how runs of spaces and leading and trailing spaces come through), and each is written in
# single quotes, inside which GRUB's script takes every character as it is ($ ; # { } | & * ...).
# GRUB joins them back into the same bytes. ' " and \ can never reach the kernel as themselves,
# and a byte that is not printable ASCII has no business in a command line: "strict" refuses such
# a command line with a message and exit status 2. "or-refuse-at-boot" (the grub.cfg of a USB stick
# whose UEFI boot is the direct loader, which passes them) writes instead a grub.cfg that says why
# and does not start the kernel.
set -euo pipefail
export LC_ALL=C

if [ $# -ne 3 ] || { [ "$1" != strict ] && [ "$1" != or-refuse-at-boot ]; }; then
	echo "usage: $0 strict|or-refuse-at-boot \"COMMAND LINE\" OUT.cfg" >&2
	exit 2
fi
mode=$1 cmdline=$2 out=$3
template=$(dirname "$0")/grub.cfg.in

case $cmdline in
*[!\ -~]*)
	echo "mkgrubcfg: CMDLINE has a byte that is not printable ASCII (a tab, a line end, another" \
		"control character or a non-ASCII character); a kernel command line is one line of" \
		"printable ASCII" >&2
	exit 2 ;;
esac

# A grub.cfg that only says why it does not boot the kernel (GRUB then stops at its prompt).
refuse_at_boot() {
	cat <<-'CFG'
	# GRUB menu for this stick: its kernel command line cannot pass through GRUB unchanged.
	serial --unit=0 --speed=115200
	terminal_input serial console
	terminal_output serial console
	echo 'This stick cannot boot through GRUB: its kernel command line has a quote or a backslash,'
	echo 'which GRUB would pass to the kernel with a backslash added. Boot it under UEFI, where the'
	echo 'direct loader passes the command line unchanged, or write it again with another CMDLINE.'
	CFG
}

case $cmdline in
*[\'\"\\]*)
	if [ "$mode" = or-refuse-at-boot ]; then
		echo "mkgrubcfg: warning: CMDLINE has ' \" or \\, which GRUB cannot pass unchanged:" \
			"$out only says so, and only the direct loader boots the kernel" >&2
		refuse_at_boot >"$out.tmp"
		mv "$out.tmp" "$out"
		exit 0
	fi
	echo "mkgrubcfg: CMDLINE has ' \" or \\, which GRUB cannot pass to the kernel unchanged (its" \
		"multiboot2 command puts a backslash before each one); leave them out, or boot through" \
		"the direct EFI loader (make usb UEFI_BOOT=loader)" >&2
	exit 2 ;;
esac

# The arguments: one single-quoted piece per space-separated piece, empty pieces included.
args=""
if [ -n "$cmdline" ]; then
	rest=$cmdline
	while :; do
		args+="${args:+ }'${rest%% *}'"
		case $rest in *' '*) rest=${rest#* } ;; *) break ;; esac
	done
fi

# The template's @CMDLINE@ becomes the arguments (split around it: no pattern replacement, which
# would give '&' a meaning in bash 5.2).
while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	*@CMDLINE@*) printf '%s%s%s\n' "${line%%@CMDLINE@*}" "$args" "${line#*@CMDLINE@}" ;;
	*) printf '%s\n' "$line" ;;
	esac
done <"$template" >"$out.tmp"
mv "$out.tmp" "$out"
