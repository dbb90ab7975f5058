#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make run and make debug without booting anything: a MEM= without a unit or below what boots is
# refused with a message saying what is accepted (and nothing is built), and the QEMU command that
# make debug (PRINT=1) would run has the machine make run would boot, FIRMWARE= and MEDIUM=
# included. Needs build/os.iso (make test builds it first). Ends with "N passed, N failed".
set -u

. "$(dirname "$0")/../tap.sh"

# refused NAME TEXT make-arguments...: make exits non-zero, says TEXT, and builds and boots nothing.
refused() {
	local name=$1 text=$2 out status
	shift 2
	out=$(make --no-print-directory "$@" 2>&1)
	status=$?
	[ "$status" != 0 ] && grep -qF -- "$text" <<<"$out" && ! grep -qE '^  (CC|ISO|LD) |run.sh:' <<<"$out"
	check "$name" $? "exit $status, output: $out"
}

accepts="MEM takes a number with a unit K, M, G or T"
for goal in run debug; do
	refused "make $goal MEM=5 is refused: no unit" "MEM=5: the size needs a unit" $goal MEM=5
	refused "make $goal MEM=6M is refused: too small for GRUB" "MEM=6M: too little memory to boot" $goal MEM=6M
	refused "make $goal MEM=32M FIRMWARE=uefi is refused: too small for OVMF" "at least 64M with FIRMWARE=uefi" \
		$goal MEM=32M FIRMWARE=uefi
	refused "make $goal MEM=lots is refused" "MEM=lots: not a size" $goal MEM=lots
	refused "make $goal's refusal says what is accepted" "$accepts" $goal MEM=5
done

# printed GOAL ARGS...: the QEMU command make GOAL PRINT=1 prints, in $cmd.
printed() {
	cmd=$(make --no-print-directory "$@" PRINT=1 2>&1 | grep '^qemu-system-x86_64 ')
}
printed run MEM=7M
check "make run MEM=7M is accepted (the smallest that boots)" "$([ -n "$cmd" ]; echo $?)" "no QEMU command printed"
printed run MEM=64M FIRMWARE=uefi
check "make run MEM=64M FIRMWARE=uefi is accepted" "$([ -n "$cmd" ]; echo $?)" "no QEMU command printed"

printed debug FIRMWARE=uefi MEDIUM=usb MEM=512M MACHINE=q35 SMP=3
for want in "OVMF_CODE_4M.fd" "usb-storage" "-m 512M" "-M q35" "-smp 3" "-s -S"; do
	grep -qF -- "$want" <<<"$cmd"
	check "make debug FIRMWARE=uefi MEDIUM=usb ... gives QEMU $want" $? "the command: $cmd"
done
printed debug
for want in "media=cdrom" "-s -S"; do
	grep -qF -- "$want" <<<"$cmd"
	check "make debug boots from CD-ROM under SeaBIOS by default ($want)" $? "the command: $cmd"
done
! grep -qF OVMF <<<"$cmd"
check "make debug uses no OVMF by default" $? "the command: $cmd"
# The same machine: the commands agree up to the serial port (and the name of OVMF's variables).
printed run FIRMWARE=uefi MEDIUM=usb
run_machine=${cmd%% -chardev stdio*}
printed debug FIRMWARE=uefi MEDIUM=usb
debug_machine=${cmd%% -serial file:*}
[ "${run_machine//run-OVMF/debug-OVMF}" = "$debug_machine" ]
check "make debug boots the machine make run boots" $? "run: $run_machine / debug: $debug_machine"

tap_total
