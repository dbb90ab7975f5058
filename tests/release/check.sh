#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make test-release: the release kernel (make kernel) built from scratch in DIR must build without
# a warning, hold no self-test or benchmark symbol, and, booted in QEMU, print the boot report
# and end with the release verdict (exit through isa-debug-exit as passed), with no command line
# and with "ktest=mm_* bench". Ends with "N passed, N failed".
#   tests/release/check.sh DIR LOGDIR [TIMEOUT]
set -u
dir=$1 logs=$2 timeout_s=${3:-120}
pass=0 fail=0

ok() { echo "ok - $1"; pass=$((pass + 1)); }
not_ok() { echo "not ok - $1"; fail=$((fail + 1)); }
check() { # check DESCRIPTION COMMAND...
	local what=$1; shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
finish() {
	echo "test-release: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

mkdir -p "$logs"
build_log=$logs/release-build.log
rm -rf "$dir"
make --no-print-directory B="$dir" CMDLINE= kernel >"$build_log" 2>&1
status=$?
kernel=$dir/release/kernel.elf
if [ "$status" -ne 0 ] || [ ! -r "$kernel" ]; then
	tail -n 20 "$build_log"
	not_ok "the release kernel builds (log: $build_log)"
	finish
fi
ok "the release kernel builds"
warnings=$(grep -E 'warning:' "$build_log")
[ -z "$warnings" ] || echo "$warnings"
check "it builds without a warning" test -z "$warnings"

test_symbols=$(nm "$kernel" | grep -E 'ktest|page_alloc_bench|_suite(_ptr)?$')
[ -z "$test_symbols" ] || echo "$test_symbols"
check "it has no ktest or page_alloc_bench symbol" test -z "$test_symbols"

# boot NAME CMDLINE: boots an ISO of the release kernel with that command line; the log's text
# (without carriage returns) is left in $out and QEMU's exit status in $status.
boot() {
	local iso=$dir/release/$1.iso log=$logs/release-$1.log
	if ! boot/mkiso.sh "$kernel" "$2" "$iso"; then
		status=-1 out=""
		return
	fi
	timeout -k 5 "$timeout_s" qemu-system-x86_64 -M pc -m 256M -accel tcg -cpu max -display none \
		-monitor none -nic none -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-drive "file=$iso,format=raw,media=cdrom,readonly=on" -serial "file:$log" </dev/null
	status=$?
	out=$(tr -d '\r' <"$log")
	echo "booted with \"$2\": QEMU exit status $status (log: $log)"
}
has() { grep -qE "$1" <<<"$out"; }
lacks() { ! grep -qE "$1" <<<"$out"; }
ends_with() { grep -v '^$' <<<"$out" | tail -n 1 | grep -qE "$1"; }

verdict='^ktest: self-tests are not built into this kernel \(a release build\); halting$'
boot plain ""
check "boot: the Memory: line" has '^Memory: [0-9]+K total RAM'
check "boot: buddyinfo lines" has '^Node 0, zone +(DMA|DMA32|Normal)( +[0-9]+){11}$'
check "boot: ends with the release verdict" ends_with "$verdict"
check "boot: no KTAP output" lacks 'KTAP|^ktest: summary'
check "boot: QEMU exits with 33 (passed)" test "$status" -eq 33

boot options "ktest=mm_* bench"
check "ktest= and bench: not reported as unknown" lacks 'Unknown kernel command line'
check "bench: says no benchmark is built in" has '^bench: no benchmark is built into this kernel'
check "ktest= and bench: ends with the release verdict" ends_with "$verdict"
check "ktest= and bench: no KTAP or benchmark table" lacks 'KTAP|^bench: order'
check "ktest= and bench: QEMU exits with 33 (passed)" test "$status" -eq 33
finish
