#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The per-node meminfo of a NUMA boot (test-qemu-numa2, test-qemu-numa4): for every node of the
# "NUMA: node N: 0xA-0xB (X MiB)" lines (kernel/numa.c, from the SRAT), mm/'s boot report must
# have "Node N MemTotal: T kB" (mm/node_stat.h) with T what the node's RAM holds minus what is
# reserved there: at most X MiB (rounded up), at least X MiB less SLACK_MIB (the first MiB, the
# kernel image and boot tables, the memmap and per-CPU lists); 0 for a node without memory.
# Exit 0 when every node matches, 1 (saying which) otherwise.
#   tests/qemu/check-numa-meminfo.sh LOG
set -u
log=$1
SLACK_MIB=32
tr -d '\r' <"$log" | awk -v slack="$SLACK_MIB" '
/^NUMA: node [0-9]+: no memory/ { split($3, a, ":"); want[a[1]] = 0; nodes[a[1]] = 1; next }
/^NUMA: node [0-9]+: 0x/ {
	split($3, a, ":"); n = a[1]
	mib = $0; sub(/^[^(]*\(/, "", mib); sub(/ MiB\).*$/, "", mib); want[n] = mib + 0; nodes[n] = 1; next
}
/^Node [0-9]+ MemTotal:/ { total[$2] = $4; next }
END {
	bad = 0; count = 0
	for (n in nodes) {
		count++
		if (!(n in total)) { print "node " n ": no \"Node " n " MemTotal\" line"; bad = 1; continue }
		hi = (want[n] + 1) * 1024; lo = (want[n] - slack) * 1024
		if (want[n] == 0 ? total[n] != 0 : (total[n] > hi || total[n] < lo)) {
			print "node " n ": MemTotal " total[n] " kB, its RAM " want[n] " MiB"; bad = 1
		} else {
			print "node " n ": MemTotal " total[n] " kB of " want[n] " MiB: ok"
		}
	}
	if (!count) { print "no \"NUMA: node\" lines"; bad = 1 }
	exit bad
}'
