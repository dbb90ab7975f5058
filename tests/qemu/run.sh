#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boots a kernel image in QEMU, captures the serial console to a log, and judges the run:
#   tests/qemu/run.sh --firmware bios|uefi --medium cdrom|usb --image IMG --log build/logs/NAME.log
#                     [--mem 256M] [--machine pc|q35] [--smp 1] [--cpu max] [--timeout 120]
#                     [--accel tcg|kvm] [--numa 'MEM@CPUS ...'] [--numa-dist 'A:B:D ...']
#                     [--cmdline-note TEXT] [--interactive] [--display SPEC] [--gdb GDBINIT] [--print]
#
# Under TCG every virtual CPU gets a host thread (multi-threaded TCG); --cpu picks the CPU model
# there (max: everything QEMU emulates; qemu64: an old one, without 1 GiB pages or x2APIC).
#
# The kernel ends a run by writing 0x10 (pass) or 0x11 (fail) to isa-debug-exit at port 0xf4;
# QEMU then exits with (value << 1) | 1: 33 = pass, 35 = fail. A hang is stopped by the timeout,
# a triple fault exits with 0 (-no-reboot). The KTAP report in the log is then checked by
# tests/qemu/ktap-check.sh. Prints each test and ends with "N passed, N failed"; exits 0 only
# when QEMU exited with 33 and the report is complete and clean.
#
# --numa gives the machine one NUMA node per word, in order: MEM@CPUS, e.g. '256M@0-1 0@2-3
# 256M@': node 0 of 256 MiB with CPUs 0-1, node 1 without memory, node 2 without CPUs (the
# node sizes must add up to --mem). --numa-dist sets the distance between two nodes both ways
# (QEMU then builds a SLIT); without it there is none.
#
# --interactive also shows the serial console on this terminal (make run); --display shows
# the screen (e.g. --display gtk); --cmdline-note is printed with the run's description.
# --gdb starts QEMU halted with a gdb stub on :1234 and runs gdb with GDBINIT; QEMU stops when gdb
# quits, and nothing is judged (make debug). --print prints the QEMU command (and gdb's) instead
# of running it. The memory size is refused, saying what is accepted, when check-mem.sh says so.
set -u
here=$(dirname "$0")

firmware=bios medium=cdrom image="" mem=256M machine=pc log="" note="" timeout_s=120 accel=tcg
interactive=0 display=none smp=1 cpu=max gdbinit="" print=0 numa="" numa_dist=""

usage() {
	sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

die() {
	echo "run.sh: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}

while [ $# -gt 0 ]; do
	case $1 in
	--firmware|--medium|--image|--mem|--machine|--smp|--cpu|--log|--cmdline-note|--timeout|--accel|--display|--gdb|--numa|--numa-dist)
		[ $# -ge 2 ] || usage
		case $1 in
		--firmware) firmware=$2 ;;
		--medium) medium=$2 ;;
		--image) image=$2 ;;
		--mem) mem=$2 ;;
		--machine) machine=$2 ;;
		--smp) smp=$2 ;;
		--cpu) cpu=$2 ;;
		--log) log=$2 ;;
		--cmdline-note) note=$2 ;;
		--timeout) timeout_s=$2 ;;
		--accel) accel=$2 ;;
		--display) display=$2 ;;
		--gdb) gdbinit=$2 ;;
		--numa) numa=$2 ;;
		--numa-dist) numa_dist=$2 ;;
		esac
		shift 2 ;;
	--interactive) interactive=1; shift ;;
	--print) print=1; shift ;;
	-h|--help) usage ;;
	*) echo "run.sh: unknown argument $1" >&2; usage ;;
	esac
done

[ -n "$image" ] || die "--image is required"
[ -n "$log" ] || die "--log is required"
[ -r "$image" ] || die "cannot read the image $image (build it first)"
case $firmware in bios|uefi) ;; *) die "--firmware must be bios or uefi, not '$firmware'" ;; esac
case $medium in cdrom|usb) ;; *) die "--medium must be cdrom or usb, not '$medium'" ;; esac
case $machine in pc|q35) ;; *) die "--machine must be pc or q35, not '$machine'" ;; esac
case $accel in tcg|kvm) ;; *) die "--accel must be tcg or kvm, not '$accel'" ;; esac
case $smp in ''|*[!0-9]*|0) die "--smp must be a number of CPUs (1 or more), not '$smp'" ;; esac
case $cpu in ''|*[!a-zA-Z0-9_.-]*) die "--cpu must be a QEMU CPU model name, not '$cpu'" ;; esac
case $timeout_s in ''|*[!0-9]*) die "--timeout must be a number of seconds, not '$timeout_s'" ;; esac
mem_problem=$("$here/check-mem.sh" "$firmware" "$mem") || die "$mem_problem"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is not installed (make deps)"
if [ "$accel" = kvm ] && ! [ -w /dev/kvm ]; then
	die "--accel kvm: /dev/kvm is missing or not writable by this user (use --accel tcg)"
fi

mkdir -p "$(dirname "$log")" build/qemu || die "cannot create the log directory"
name=$(basename "$log" .log)

args=(-M "$machine" -m "$mem" -smp "$smp" -no-reboot -display "$display" -monitor none -nic none
      -device isa-debug-exit,iobase=0xf4,iosize=0x04)
if [ "$accel" = kvm ]; then
	args+=(-accel kvm)
else
	args+=(-accel tcg,thread=multi -cpu "$cpu")
fi

# NUMA: a RAM backend per node with memory, and the node's CPUs (QEMU's -numa node,memdev=,cpus=).
nid=0
for node in $numa; do
	case $node in *@*) ;; *) die "--numa: '$node' is not MEM@CPUS" ;; esac
	size=${node%%@*} cpus=${node#*@} opts="node,nodeid=$nid"
	case $size in 0|0[MG]) ;; *) args+=(-object "memory-backend-ram,id=numa-mem$nid,size=$size"); opts+=",memdev=numa-mem$nid" ;; esac
	[ -z "$cpus" ] || opts+=",cpus=$cpus"
	args+=(-numa "$opts")
	nid=$((nid + 1))
done
for d in $numa_dist; do
	IFS=: read -r src dst val <<<"$d"
	[ -n "$val" ] || die "--numa-dist: '$d' is not A:B:DISTANCE"
	args+=(-numa "dist,src=$src,dst=$dst,val=$val")
done

# Firmware: SeaBIOS is QEMU's default; OVMF needs its code (read-only) and a private copy of
# its variable store, so runs never share or modify the installed one.
if [ "$firmware" = uefi ]; then
	code=/usr/share/OVMF/OVMF_CODE_4M.fd vars=/usr/share/OVMF/OVMF_VARS_4M.fd
	[ -r "$code" ] && [ -r "$vars" ] || die "OVMF is not installed ($code, $vars): make deps"
	cp "$vars" "build/qemu/$name-OVMF_VARS.fd" || die "cannot copy $vars"
	args+=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$code"
	       -drive "if=pflash,format=raw,unit=1,file=build/qemu/$name-OVMF_VARS.fd")
fi

# Media: a CD-ROM drive, or a USB stick on an xHCI controller. snapshot=on keeps the image
# unmodified whatever the guest writes.
if [ "$medium" = cdrom ]; then
	args+=(-drive "file=$image,format=raw,media=cdrom,readonly=on")
else
	args+=(-device qemu-xhci,id=xhci
	       -drive "if=none,id=stick,format=raw,snapshot=on,file=$image"
	       -device usb-storage,bus=xhci.0,drive=stick,bootindex=0)
fi

if [ -n "$gdbinit" ]; then
	args+=(-serial "file:$log" -s -S)
elif [ "$interactive" = 1 ]; then
	args+=(-chardev "stdio,id=console,logfile=$log,signal=on" -serial chardev:console)
else
	args+=(-chardev "file,id=console,path=$log" -serial chardev:console)
fi

if [ "$print" = 1 ]; then
	printf '%q ' qemu-system-x86_64 "${args[@]}"
	echo
	[ -z "$gdbinit" ] || echo "gdb -q -x $gdbinit"
	exit 0
fi
if [ -n "$gdbinit" ]; then
	echo "run.sh: $firmware from $medium, $machine, $mem, $smp CPU(s): QEMU halted, gdb stub on :1234, serial in $log"
	qemu-system-x86_64 "${args[@]}" </dev/null &
	qpid=$!
	gdb -q -x "$gdbinit"
	kill "$qpid" 2>/dev/null
	exit 0
fi

echo "run.sh: $firmware from $medium, $machine, $mem, $smp CPU(s) $cpu, $accel${note:+, $note}: $image (log $log, timeout ${timeout_s}s)"
: >"$log"
if [ "$interactive" = 1 ]; then
	# --foreground keeps QEMU in the terminal's process group so it can read the keyboard.
	timeout --foreground -k 5 "$timeout_s" qemu-system-x86_64 "${args[@]}"
	status=$?
	echo
else
	timeout -k 5 "$timeout_s" qemu-system-x86_64 "${args[@]}" </dev/null
	status=$?
fi

case $status in
33) verdict="QEMU exit status 33: the kernel reported success" ;;
35) verdict="QEMU exit status 35: the kernel reported failure" ;;
124) verdict="QEMU exit status 124: timed out after ${timeout_s}s" ;;
*) verdict="QEMU exit status $status" ;;
esac
echo "run.sh: $verdict"

report=$("$here/ktap-check.sh" --exit-status "$status" "$log")
result=$?
if [ "$result" -ne 0 ] && [ "$interactive" = 0 ]; then
	if [ -s "$log" ]; then
		echo "run.sh: the run failed; the last lines of $log:"
		tail -n 25 "$log" | sed "s/^/    | /"
	else
		echo "run.sh: the run failed and $log is empty: nothing reached the serial port" \
			"(the firmware found no boot medium, or the boot loader stopped before the kernel)"
	fi
fi
echo "$report" # last, so that "N passed, N failed" ends the output
exit "$result"
