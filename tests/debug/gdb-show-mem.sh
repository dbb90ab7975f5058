#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the README's "make debug" section promises: gdb attached to QEMU's stub can stop the kernel
# and "call show_mem()". Boots ISO (a test kernel with ktest=off) halted under QEMU's gdb stub,
# lets gdb run it to run_selftests(), calls show_mem() there, and checks that the serial log then
# holds the meminfo lines twice (the boot's and gdb's) with a zoneinfo block for the same zones.
# Ends with "N passed, N failed".
#   tests/debug/gdb-show-mem.sh KERNEL ISO LOG
set -u
kernel=$1 iso=$2 log=$3
port=$((20000 + RANDOM % 20000))
mkdir -p "$(dirname "$log")"
rm -f "$log"
timeout -k 5 300 qemu-system-x86_64 -M pc -m 256M -smp 2 -cdrom "$iso" -display none -monitor none \
	-nic none -no-reboot -serial "file:$log" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-gdb "tcp:127.0.0.1:$port" -S </dev/null &
qemu=$!
sleep 1
out=$(timeout 240 gdb -q -batch -nx -ex "file $kernel" -ex 'set architecture i386:x86-64' \
	-ex "target remote 127.0.0.1:$port" -ex 'hbreak run_selftests' -ex continue \
	-ex 'call show_mem()' -ex kill 2>&1)
kill "$qemu" 2>/dev/null
wait "$qemu" 2>/dev/null
pass=0 fail=0
check() { # check WHAT COMMAND...
	local what=$1
	shift
	if "$@"; then pass=$((pass + 1)); else echo "gdb-show-mem: $what"; fail=$((fail + 1)); fi
}
lines() { tr -d '\r' <"$log" | grep -c "$1"; }
check "gdb did not stop at run_selftests:
$out" grep -q 'hit .*run_selftests' <<<"$out"
check "the log has $(lines '^MemTotal: ') MemTotal lines, not 2 (boot and gdb's call)" \
	test "$(lines '^MemTotal: ')" -eq 2
check "the log has $(lines '^Node 0, zone ') zoneinfo blocks, not twice as many as at boot" \
	test "$(lines '^Node 0, zone ')" -gt 0 -a $(($(lines '^Node 0, zone ') % 2)) -eq 0
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
