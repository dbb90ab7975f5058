#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make test-lib: mm/ as a library (mm/lib.sh, make lib). Builds libmm.a plain and with a prefix in
# OUT/plain and OUT/prefixed, over the guide's example environment (tests/port/mm_env.h), then
# checks that: mm/lib.sh's public headers are tests/api/public_headers' (and version.h); the plain
# library links into tests/port's example unchanged, also through pkg-config, and it runs; every
# global symbol of the plain one is a call of mm/API.md or starts with mm_ (or __mm_), and every
# global symbol of the prefixed one carries the prefix while its references to the environment do
# not; a program with its own kmalloc, kfree, alloc_pages, zones and max_pfn (heap.c) links the
# prefixed library and runs (user.c), and the same program fails to link against the plain one,
# on kmalloc, kfree and alloc_pages only.
# Ends with "N passed, N failed".
#   tests/lib/check.sh OUT        (run from the top of the tree; CC defaults to clang)
set -u
out=${1:?usage: tests/lib/check.sh OUT}
CC=${CC:-clang}
prefix=mmtest_
env_h=tests/port/mm_env.h
# What mm/ may leave undefined: mm/arch.h's list (tests/port/build.sh) and the example's flag.
env_syms=' arch_map_memmap arch_random_seed arch_run_on_cpus arch_vmalloc_clear_marker arch_vmalloc_map_page arch_vmalloc_set_marker arch_vmalloc_unmap memcpy memmove memset mm_direct_map_offset mm_vmalloc_end mm_vmalloc_start mm_vmemmap_base panic printk snprintf vsnprintf env_irqs_off _GLOBAL_OFFSET_TABLE_ '
hostflags=(-std=gnu11 -O1 -g -Wall -Wextra -Werror -DMM_DEBUG=1)

pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

rm -rf "$out"
mkdir -p "$out"

# ---- the headers a library ships are the public ones --------------------------------------------
want=$( { grep -v '^#' tests/api/public_headers | awk 'NF { sub("mm/", "", $1); sub(".h$", "", $1); print $1 }'; echo version; } | sort)
have=$(sed -n '/^PUBLIC_HEADERS="/,/"$/p' mm/lib.sh | tr -d '"' | sed 's/PUBLIC_HEADERS=//' | tr -s ' \t' '\n' | awk NF | sort)
if [ "$want" = "$have" ]; then ok "mm/lib.sh ships tests/api/public_headers' headers and version.h"
else bad "mm/lib.sh's PUBLIC_HEADERS differ from tests/api/public_headers (+ version): $(diff <(echo "$want") <(echo "$have") | grep '^[<>]' | tr '\n' ' ')"; fi

# ---- the plain library ---------------------------------------------------------------------------
if CC=$CC mm/lib.sh "$out/plain" "$env_h" >"$out/plain.log" 2>&1; then ok "mm/lib.sh builds the plain libmm.a"
else cat "$out/plain.log"; bad "mm/lib.sh failed on the plain library"; finish; fi
grep -q 'warning:' "$out/plain.log" && bad "warnings building libmm.a with $CC: $(grep -c 'warning:' "$out/plain.log")" || ok "no warnings building it with $CC -Wall -Wextra"
if CC=$CC mm/lib.sh "$out/bad" "$env_h" 9x_ >"$out/bad.log" 2>&1; then bad "mm/lib.sh took the prefix 9x_, which starts no C identifier"
elif grep -q "prefix '9x_' does not start a C identifier" "$out/bad.log"; then ok "mm/lib.sh refuses the prefix 9x_ and says why"
else bad "mm/lib.sh failed on the prefix 9x_ without saying why: $(cat "$out/bad.log")"; fi
inc=$out/plain/include

# Every global symbol of the plain library is a call mm/API.md documents (its "### name" entries:
# the Linux-style names a kernel calls), or is mm/'s own and says so with mm_ or __mm_; anything
# else (a generic name like zones or max_pfn) would clash with the kernel that links it. A symbol
# that must stay global and unprefixed goes on this list, with the reason:
allowed_globals=' '
api_names=$(sed -nE 's/^### ([A-Za-z_][A-Za-z0-9_]*).*/\1/p' mm/API.md | sort -u)
unowned=""
nglobals=0
for sym in $(nm -g --defined-only "$out/plain/libmm.a" | awk 'NF == 3 && $2 != "U" { print $3 }' | sort -u); do
	nglobals=$((nglobals + 1))
	case $sym in mm_* | __mm_*) continue ;; esac
	case $allowed_globals in *" $sym "*) continue ;; esac
	grep -qxF -- "$sym" <<<"$api_names" || unowned="$unowned $sym"
done
if [ -z "$unowned" ]; then ok "all $nglobals global symbols of libmm.a are calls of mm/API.md or start with mm_ or __mm_"
else bad "global symbols of libmm.a neither in mm/API.md nor mm_-prefixed (make them static, or prefix them mm_):$unowned"; fi
# tests/port's example, its files unchanged, against the installed headers and the library.
port_link() { # OUT_EXE CFLAGS... -- LIBS...
	local exe=$1 c; shift
	local cflags=() libs=()
	while [ "$1" != -- ]; do cflags+=("$1"); shift; done; shift
	libs=("$@")
	for c in env main; do
		"$CC" "${hostflags[@]}" "${cflags[@]}" -c "tests/port/$c.c" -o "$exe-$c.o" || return 1
	done
	"$CC" "$exe-env.o" "$exe-main.o" "${libs[@]}" -o "$exe"
}
if port_link "$out/port" -I "$inc" -- "$out/plain/libmm.a" && "$out/port" >"$out/port.txt"; then
	ok "tests/port's example, unchanged, links the plain libmm.a and passes ($(tail -n 1 "$out/port.txt"))"
else bad "tests/port's example against the plain libmm.a"; fi

export PKG_CONFIG_PATH=$out/plain/pkgconfig
pc_cflags=$(pkg-config --cflags mm) && pc_libs=$(pkg-config --libs mm)
# shellcheck disable=SC2086 # pkg-config's answers are lists of flags
if [ -n "${pc_libs-}" ] && port_link "$out/port-pc" $pc_cflags -- $pc_libs && "$out/port-pc" >/dev/null; then
	ok "pkg-config --cflags/--libs mm ($pc_cflags $pc_libs) build the example, and it passes"
else bad "pkg-config with PKG_CONFIG_PATH=$PKG_CONFIG_PATH: cflags '${pc_cflags-}' libs '${pc_libs-}'"; fi
v=$(pkg-config --modversion mm)
[ "$v" = "$(sed -nE 's/^#define MM_VERSION_STRING "(.*)"/\1/p' mm/version.h)" ] && ok "mm.pc's version $v is mm/version.h's" || bad "mm.pc's version $v is not mm/version.h's"
unset PKG_CONFIG_PATH

# ---- the prefixed library ------------------------------------------------------------------------
if CC=$CC mm/lib.sh "$out/prefixed" "$env_h" "$prefix" >"$out/prefixed.log" 2>&1; then ok "mm/lib.sh builds libmm.a with MM_PREFIX=$prefix"
else cat "$out/prefixed.log"; bad "mm/lib.sh failed with a prefix"; finish; fi
lib=$out/prefixed/libmm.a
globals=$(nm -g --defined-only "$lib" | awk 'NF == 3 && $2 != "U" { print $3 }' | sort -u)
plain=$(echo "$globals" | grep -v "^$prefix" || true)
n=$(echo "$globals" | wc -l)
[ -z "$plain" ] && ok "all $n global symbols of the prefixed libmm.a start with $prefix" || bad "symbols without the prefix: $(tr '\n' ' ' <<<"$plain")"
[ "$n" -eq "$(nm -g --defined-only "$out/plain/libmm.a" | awk 'NF == 3 && $2 != "U"' | sort -u | wc -l)" ] &&
	ok "as many global symbols as the plain library" || bad "the prefixed library does not have the plain one's global symbols"
strays=""
for sym in $(nm -u "$lib" | awk '{ print $2 }' | sort -u); do
	echo "$globals" | grep -qxF -- "$sym" && continue
	case $env_syms in *" $sym "*) ;; *) strays="$strays $sym" ;; esac
done
[ -z "$strays" ] && ok "its undefined references are mm's own (prefixed) or the environment's, unprefixed" || bad "undefined references neither mm's nor the environment's:$strays"
hdr=$out/prefixed/include/mm/prefix.h
[ "$(grep -c '^#define [A-Za-z_]' "$hdr")" -eq $((n + 2)) ] && ok "mm/prefix.h renames each of the $n symbols" || bad "mm/prefix.h does not have one #define per symbol"

# Every header the library ships compiles after mm/prefix.h: no macro of theirs meets a renamed name.
all_h=$out/prefixed/all_headers.c
{ for h in "$out"/prefixed/include/mm/*.h; do echo "#include \"mm/$(basename "$h")\""; done; } >"$all_h"
if "$CC" "${hostflags[@]}" -I "$out/prefixed/include" -include mm/prefix.h -c "$all_h" -o "$all_h.o"; then
	ok "all $(ls "$out"/prefixed/include/mm/*.h | wc -l) headers it ships compile after mm/prefix.h, warning-free"
else bad "the shipped headers do not compile after mm/prefix.h"; fi

# ---- a kernel with its own heap ------------------------------------------------------------------
# heap.c is the kernel's (its own kmalloc, kfree, alloc_pages); user.c and the example's env.c
# call mm/ through mm/prefix.h.
clash_build() { # DIR: builds DIR/clash from heap.c, user.c and env.c against DIR's libmm.a
	local dir=$1 pre=()
	[ -f "$dir/include/mm/prefix.h" ] && pre=(-include mm/prefix.h)
	"$CC" "${hostflags[@]}" -c tests/lib/heap.c -o "$dir/heap.o" &&
	"$CC" "${hostflags[@]}" -I "$dir/include" -I tests/lib "${pre[@]}" -c tests/lib/user.c -o "$dir/user.o" &&
	"$CC" "${hostflags[@]}" -I "$dir/include" "${pre[@]}" -c tests/port/env.c -o "$dir/env.o" &&
	"$CC" "$dir/heap.o" "$dir/user.o" "$dir/env.o" "$dir/libmm.a" -o "$dir/clash"
}
if clash_build "$out/prefixed" && "$out/prefixed/clash" >"$out/clash.txt"; then
	ok "a program with its own kmalloc, kfree, alloc_pages, zones and max_pfn links the prefixed libmm.a and passes ($(tail -n 1 "$out/clash.txt"))"
else cat "$out/clash.txt" 2>/dev/null; bad "the program with its own heap, against the prefixed libmm.a"; fi
# The same program against the plain library (no mm/prefix.h): the API names clash, and only
# they: the program's zones and max_pfn are no concern of mm/'s, whose own are mm_-prefixed.
if clash_build "$out/plain" >"$out/clash-plain.log" 2>&1; then
	bad "the program with its own heap linked against the plain libmm.a: the clash test cannot fail"
else
	clashes=$(sed -nE "s/.*(multiple definition of [\`']|duplicate symbol: )([A-Za-z0-9_]+).*/\2/p" "$out/clash-plain.log" | sort -u | tr '\n' ' ')
	if [ "$clashes" = "alloc_pages kfree kmalloc " ]; then
		ok "without the prefix the same program does not link, on its API names only: $clashes(not zones, max_pfn)"
	else cat "$out/clash-plain.log"; bad "the program against the plain libmm.a should clash on alloc_pages kfree kmalloc only; it clashed on: ${clashes:-nothing named}"; fi
fi
finish
