#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the include graph, the way mm/README.md ("Layers") and tests/README.md describe it:
#   - across the tree, includes only point down: boot -> kernel -> mm -> lib (and tests/ may use
#     anything; nothing else may include tests/);
#   - inside mm/, a module (x.c with x.h) includes only modules of a lower layer, so the graph has
#     no cycle and no include that points up. The layers, lowest first, are in LAYERS below; a
#     module of mm/ missing from them fails the check, so a new file has to say where it belongs.
# Ends with "N passed, N failed"; exits 1 if anything failed.
#   tests/layers/check.sh [ROOT]
set -u
root=${1:-.}
cd "$root" || exit 2

LAYERS=(
	"types version"
	"list page gfp arch pageblock_types"
	"lock_check vmstat node"
	"zone fw_map memblock shrinker"
	"memmap compound_dtor watermark page_owner"
	"dump_page block_owner pageblock"
	"bad_page debug poison"
	"compound"
	"buddy folio"
	"pcp"
	"page_alloc"
	"mm_stats mm_picture migrate node_stat"
	"compaction vmstat_show"
	"page_isolation"
	"contig_alloc"
	"hugetlb"
	"slab_cache"
	"slab_debug"
	"slab"
	"kmalloc kmalloc_util slabinfo vmalloc"
	"memory_add"
	"init show_mem"
)

pass=0 fail=0
bad() { echo "layers: $*"; fail=$((fail + 1)); }

# ---- across the tree -------------------------------------------------------------------------
declare -A may=( [lib]="lib" [mm]="mm" [kernel]="kernel mm lib" [boot]="boot kernel mm lib" )
for dir in lib mm kernel boot; do
	while IFS=: read -r file target; do
		top=${target%%/*}
		case " ${may[$dir]} " in
		*" $top "*) pass=$((pass + 1)) ;;
		*) bad "$file includes \"$target\": $dir/ may include only ${may[$dir]}" ;;
		esac
	done < <(grep -roE '^#include "[^"]+"' "$dir" --include='*.c' --include='*.h' | sed -E 's/:#include "/:/; s/"$//')
done

# ---- inside mm/ ------------------------------------------------------------------------------
declare -A layer=()
for i in "${!LAYERS[@]}"; do
	for m in ${LAYERS[$i]}; do layer[$m]=$i; done
done
for f in mm/*.c mm/*.h; do
	m=$(basename "${f%.*}")
	if [ -z "${layer[$m]+set}" ]; then
		bad "$f: module $m is in no layer (add it to LAYERS in $0 and to mm/README.md)"
		continue
	fi
	for dep in $(grep -oE '^#include "mm/[a-z_0-9]+\.h"' "$f" | sed -E 's|.*"mm/||; s|\.h"||'); do
		[ "$dep" = "$m" ] && continue
		if [ -z "${layer[$dep]+set}" ]; then
			bad "$f includes mm/$dep.h, which is in no layer"
		elif [ "${layer[$dep]}" -lt "${layer[$m]}" ]; then
			pass=$((pass + 1))
		else
			bad "$f (layer ${layer[$m]}: $m) includes mm/$dep.h (layer ${layer[$dep]}): an include must point down"
		fi
	done
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
