#!/bin/sh
# SPDX-License-Identifier: MIT
# Boots ISO with 65 CPUs BOOTS times (all of them start at once through one copy of the AP
# trampoline when the command line has memmap_init_cpus=65) and counts the boots that did not
# bring every CPU up or pass their self-tests: the stack the trampoline once shared reset about
# one boot in ten.
# Usage: tests/trampoline/soak.sh ISO BOOTS LOGDIR [run.sh options...]
iso=$1 boots=$2 logs=$3
shift 3
mkdir -p "$logs"
passed=0 failed=0 i=0
while [ "$i" -lt "$boots" ]; do
	i=$((i + 1))
	log=$logs/boot-$i.log
	if tests/qemu/run.sh "$@" --firmware bios --medium cdrom --mem 256M --machine q35 --smp 65 \
		--cpu qemu64 --image "$iso" --log "$log" >"$logs/boot-$i.out" 2>&1 &&
		tr -d '\r' <"$log" | grep -qx 'smp: Brought up 1 node, 65 CPUs'; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "boot $i failed: $log"
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
