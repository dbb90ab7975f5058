#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A source added to or removed from a wildcard list relinks the programs built from it, and
# nothing relinks when nothing changed (link_list in the top Makefile). In a copy of the tracked
# files under build/ (with the objects of build/ copied along, so only what changes is built), a
# tiny KTEST_SUITE file is added: the test kernel and the host test binary must then have it;
# it is deleted: both must have lost it. Ends with "N passed, N failed".
set -u
work=${WORK:-build/relink-test}
tree=$work/tree
probe=tests/ktest/relink_probe.c
. "$(dirname "$0")/../tap.sh"

rm -rf "$work" && mkdir -p "$tree/build" || exit 1
# Sources with their times, then the objects: an object newer than its source is not rebuilt.
git ls-files -z | xargs -0 cp -a --parents -t "$tree" || exit 1
for d in build/kernel-64 build/host/obj-64 build/gen; do
	[ -d "$d" ] && mkdir -p "$tree/$(dirname "$d")" && cp -a "$d" "$tree/$(dirname "$d")/"
done

programs="build/kernel.elf build/host/ktest-64"
declare -A before
build() {   # build LOG WHAT: make the programs in the copy, output in $work/LOG.log
	make -C "$tree" --no-print-directory $programs >"$work/$1.log" 2>&1
	check "the build $2 succeeds" $? "see $work/$1.log"
}
# has PROGRAM: does PROGRAM hold the probe suite's case?
has() { nm "$tree/$1" 2>/dev/null | grep -q ' relink_probe_case$'; }
stamp() { stat -c %y "$tree/$1"; }

build copy "of the copy"
cat >"$tree/$probe" <<'SUITE'
/* SPDX-License-Identifier: MIT */
/* A suite that the relink test adds, then deletes. */
#include "tests/ktest/ktest.h"

static void relink_probe_case(struct ktest *t)
{
	(void)t;
}

KTEST_SUITE(relink_probe, KTEST_CASE(relink_probe_case));
SUITE
build added "with $probe added"
for p in $programs; do
	has "$p"
	check "$p has the added suite" $? "no symbol relink_probe_case in $p"
done

for p in $programs; do before[$p]=$(stamp "$p"); done
sleep 1 # a relink would show as a newer time
build again "again, nothing changed"
for p in $programs; do
	[ "$(stamp "$p")" = "${before[$p]}" ]
	check "$p is not linked again when nothing changed" $? "$p was rewritten"
done

rm "$tree/$probe"
build deleted "with $probe deleted"
for p in $programs; do
	! has "$p"
	check "$p has lost the deleted suite" $? "$p still has relink_probe_case: it was not linked again"
done
tap_total
