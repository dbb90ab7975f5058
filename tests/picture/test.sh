#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The memory picture, rendered for real: for each map, replay --picture (a .log is a boot log
# that has the lines already), draw the SVG, render it to PNG in headless Chromium at the SVG's
# size and check the pixels (check_png.py). Then the checker itself: a blank page, a picture
# drawn without one of its zones, and one drawn without its pageblock types, must all fail; so
# must the first picture of several nodes drawn from zone lines without their nodes.
#   tests/picture/test.sh REPLAY OUTDIR MAP|LOG...
set -u
replay=$1 out=$2
shift 2
mkdir -p "$out"
py=/usr/bin/python3
here=$(dirname "$0")

# render SVG PNG HEIGHT: the SVG at 1600 x HEIGHT, one CSS pixel a pixel.
render() {
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
		--user-data-dir="$out/chromium-profile" --window-size=1600,"$3" --screenshot="$2" "$1" \
		>"$out/chromium.log" 2>&1 && [ -s "$2" ] || { echo "FAIL chromium did not render $1 (see $out/chromium.log)"; return 1; }
}
height() { "$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["height"])' "$1"; }

# must_fail WHAT PNG LAYOUT LOG: the checker must find something wrong.
must_fail() {
	if "$py" "$here/check_png.py" "$2" "$3" "$4" >"$out/$1.check" 2>&1; then
		echo "FAIL the checker passed $1"; echo "0 passed, 1 failed"
	else
		echo "ok   the checker fails $1: $(grep -m1 '^FAIL' "$out/$1.check")"; echo "1 passed, 0 failed"
	fi
}

numa=
for map in "$@"; do
	name=$(basename "$map" .txt)
	if [ "${map%.log}" != "$map" ]; then
		name=$(basename "$map" .log)-boot
		tr -d '\r' <"$map" >"$out/$name.log"
	elif ! "$replay" --picture "$map" >"$out/$name.log"; then
		echo "FAIL $map: replay --picture failed (see $out/$name.log)"; echo "0 passed, 1 failed"; continue
	fi
	"$py" "$here/memory_svg.py" "$out/$name.log" "$out/$name.svg" --title "$name" --layout "$out/$name.json" &&
		render "$out/$name.svg" "$out/$name.png" "$(height "$out/$name.json")" &&
		"$py" "$here/check_png.py" "$out/$name.png" "$out/$name.json" "$out/$name.log" ||
		echo "0 passed, 1 failed"
	[ -z "$numa" ] && grep -q '^mm: zone .* node [0-9]*$' "$out/$name.log" && numa=$name
done

# The checker against broken pictures of the first map.
name=$(basename "$1" .txt)
printf '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="%s"/>\n' "$(height "$out/$name.json")" >"$out/blank.svg"
render "$out/blank.svg" "$out/blank.png" "$(height "$out/$name.json")" &&
	must_fail "a blank page" "$out/blank.png" "$out/$name.json" "$out/$name.log"
zone=$(grep -m1 -o 'mm: zone 0x[0-9a-f]* 0x[0-9a-f]* [A-Za-z0-9]*' "$out/$name.log")
grep -vF "$zone" "$out/$name.log" >"$out/no-zone.log"
# Checked against the whole picture's layout: the zone's band must be missed in the pixels.
"$py" "$here/memory_svg.py" "$out/no-zone.log" "$out/no-zone.svg" &&
	render "$out/no-zone.svg" "$out/no-zone.png" "$(height "$out/$name.json")" &&
	must_fail "a picture without zone ${zone##* }" "$out/no-zone.png" "$out/$name.json" "$out/$name.log"
# The pageblock row: drawn without the pageblock lines, the type colours must be missed.
grep -v 'mm: pageblock ' "$out/$name.log" >"$out/no-pageblocks.log"
"$py" "$here/memory_svg.py" "$out/no-pageblocks.log" "$out/no-pageblocks.svg" &&
	render "$out/no-pageblocks.svg" "$out/no-pageblocks.png" "$(height "$out/$name.json")" &&
	must_fail "a picture without its pageblock types" "$out/no-pageblocks.png" "$out/$name.json" "$out/$name.log"
# The nodes: drawn from zone lines without their " node N", the bands and "N1 DMA32" names must be missed.
if [ -n "$numa" ]; then
	sed 's/^\(mm: zone .*\) node [0-9]*$/\1/' "$out/$numa.log" >"$out/no-nodes.log"
	"$py" "$here/memory_svg.py" "$out/no-nodes.log" "$out/no-nodes.svg" &&
		render "$out/no-nodes.svg" "$out/no-nodes.png" "$(height "$out/$numa.json")" &&
		must_fail "a picture of $numa without its nodes" "$out/no-nodes.png" "$out/$numa.json" "$out/$numa.log"
fi
