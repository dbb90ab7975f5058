#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make test-port-aarch64: boots the AArch64 port kernel (DIR/Image) on qemu-system-aarch64 -M virt
# -cpu cortex-a57 three times, each under a timeout, and checks what it printed on the PL011:
#   1. QEMU's own device tree: every self-test suite passes (KTAP totals, verdict, exit status 0);
#   2. that tree with a memory reservation and /reserved-memory nodes added (dtc): the kernel
#      lists each, mm/ keeps every one of them (the aarch64_boot suite) and every suite passes;
#   3. that tree with 33 memory reservations, more than the reader keeps: refused, status 1.
# Logs: LOGDIR/port-aarch64{,-reserved,-refused}.log. Ends with "N passed, N failed".
# Usage: tests/port/aarch64/run.sh DIR LOGDIR TIMEOUT_SECONDS
set -u
dir=${1:?usage: run.sh DIR LOGDIR TIMEOUT}
logs=${2:?usage: run.sh DIR LOGDIR TIMEOUT}
timeout=${3:?usage: run.sh DIR LOGDIR TIMEOUT}
. "$(dirname "$0")/../../tap.sh"
mkdir -p "$logs"
machine=(-M virt -cpu cortex-a57 -m 256M -nographic -monitor none -serial stdio -semihosting)

# boot LOG [QEMU ARGS...]: boots the kernel, its serial output (CR dropped) in LOG; returns QEMU's
# status (the kernel's verdict through semihosting; 124 when the timeout ended it).
boot() {
	local log=$1
	shift
	timeout "$timeout" qemu-system-aarch64 "${machine[@]}" -kernel "$dir/Image" "$@" </dev/null 2>&1 |
		tr -d '\r' >"$log"
	return "${PIPESTATUS[0]}"
}

has_line() { grep -qxF "$2" "$1"; }   # has_line LOG LINE: LOG has exactly LINE

# The checks of a run that must pass: status 0, no failed case, the verdict line.
check_passed() {   # check_passed NAME LOG STATUS
	local totals
	totals=$(grep -E '^# Totals: ' "$2" | tail -n 1)
	check "$1: QEMU exits with status 0 (semihosting SYS_EXIT)" "$([ "$3" = 0 ]; echo $?)" "status $3 (124: timed out), see $2"
	check "$1: every case passes (${totals:-no totals})" \
		"$(grep -qE '^# Totals: pass:[1-9][0-9]* fail:0 ' <<<"$totals"; echo $?)" "see $2"
	check "$1: the verdict line says PASS" "$(has_line "$2" 'port: verdict: PASS'; echo $?)" "see $2"
	grep -E '^ktest: summary: ' "$2" | sed "s/^/# $1: /"
}

# 1. QEMU's device tree.
log=$logs/port-aarch64.log
boot "$log"
check_passed "virt" "$log" $?
check "virt: RAM from the device tree's /memory node" \
	"$(has_line "$log" 'port: memory [mem 0x0000000040000000-0x000000004fffffff] memory'; echo $?)" "see $log"

# QEMU's tree, then the same with reservations of every kind added (the memory size is what QEMU
# writes into /memory again when it loads a -dtb).
work=$dir/dtb
mkdir -p "$work"
timeout "$timeout" qemu-system-aarch64 "${machine[@]}" -machine dumpdtb="$work/virt.dtb" >/dev/null 2>&1
dtc -q -I dtb -O dts -o "$work/virt.dts" "$work/virt.dtb" || { check "dtc reads QEMU's tree" 1 "dtc failed"; tap_total; exit; }
{
	sed -n '1p' "$work/virt.dts"
	echo '/memreserve/ 0x44000000 0x2000;'
	sed -n '2,$p' "$work/virt.dts"
	cat <<'DTS'
/ {
	reserved-memory {
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
		firmware@45000000 { reg = <0x0 0x45000000 0x0 0x100000>; no-map; };
		shared@46001000 { reg = <0x0 0x46001000 0x0 0x3000>; };
		pool { size = <0x0 0x400000>; };
	};
};
DTS
} >"$work/reserved.dts"
dtc -q -I dts -O dtb -o "$work/reserved.dtb" "$work/reserved.dts"

# 2. The reservations: each listed, the no-map one not RAM to mm/, every suite passing.
log=$logs/port-aarch64-reserved.log
boot "$log" -dtb "$work/reserved.dtb"
check_passed "reserved" "$log" $?
for line in 'port: reserved [mem 0x0000000044000000-0x0000000044001fff] memreserve' \
	'port: reserved [mem 0x0000000045000000-0x00000000450fffff] reserved-memory no-map' \
	'port: reserved [mem 0x0000000046001000-0x0000000046003fff] reserved-memory' \
	'port: 1 /reserved-memory nodes have a size but no reg: nothing here allocates them' \
	'BIOS-e820: [mem 0x0000000045000000-0x00000000450fffff] reserved' \
	'    ok 2 reserved_ranges_hold_no_free_page'; do
	check "reserved: the log has \"$line\"" "$(has_line "$log" "$line"; echo $?)" "see $log"
done

# 3. More reservations than the reader keeps: refused, not cut short.
{
	sed -n '1p' "$work/virt.dts"
	for i in $(seq 0 32); do printf '/memreserve/ 0x%x 0x1000;\n' $((0x44000000 + i * 0x2000)); done
	sed -n '2,$p' "$work/virt.dts"
} >"$work/refused.dts"
dtc -q -I dts -O dtb -o "$work/refused.dtb" "$work/refused.dts"
log=$logs/port-aarch64-refused.log
boot "$log" -dtb "$work/refused.dtb"
status=$?
check "refused: 33 memory reservations end the run with status 1" "$([ "$status" = 1 ]; echo $?)" "status $status, see $log"
check "refused: it says why" "$(grep -qF 'is refused: device tree: more than 32 reserved ranges' "$log"; echo $?)" "see $log"
check "refused: no suite ran" "$(! grep -q '^KTAP version' "$log"; echo $?)" "see $log"
tap_total
