#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that the kernel's report reaches the screen, not only the serial port: boots an image in
# QEMU with a standard VGA card and no isa-debug-exit device (so the kernel halts after its summary,
# as on a real machine), then reads the screen through the QEMU monitor: VGA text memory at 0xb8000
# when the kernel says it uses VGA text, or a screen dump read back with the console font
# (tests/screen/ppm_text) when it uses a framebuffer. The screen must end with the page the kernel
# leaves there (verdict, memory, zone pictures, failed cases) within 80x25, show no BUG: from the misuse
# self-tests (they go to the serial port only), and have shown the whole boot report.
# Ends with "N passed, N failed".
#
#   tests/screen/test.sh --firmware bios|uefi --image IMG --name NAME --ppm-text TOOL
#                        [--machine pc|q35] [--timeout SECONDS] [--accel tcg|kvm] [--expect vga|fb|any]
set -u

firmware=bios image="" name="" ppm_text="" machine="" timeout_s=180 accel=tcg expect=any
while [ $# -gt 0 ]; do
	case $1 in
	--firmware) firmware=$2 ;;
	--image) image=$2 ;;
	--name) name=$2 ;;
	--ppm-text) ppm_text=$2 ;;
	--machine) machine=$2 ;;
	--timeout) timeout_s=$2 ;;
	--accel) accel=$2 ;;
	--expect) expect=$2 ;;
	*) echo "screen test: unknown argument $1" >&2; exit 2 ;;
	esac
	shift 2 || { echo "screen test: $1 needs a value" >&2; exit 2; }
done
[ -n "$image" ] && [ -n "$name" ] && [ -x "$ppm_text" ] ||
	{ echo "screen test: --image, --name and --ppm-text (built) are required"; echo "0 passed, 1 failed"; exit 1; }

dir=build/screen/$name
log=build/logs/screen-$name.log
rm -rf "$dir" && mkdir -p "$dir" build/logs

. "$(dirname "$0")/../tap.sh"

finish() {
	echo quit >&3
	for ((k = 0; k < 10; k++)); do kill -0 "$qpid" 2>/dev/null || break; sleep 0.5; done
	kill "$qpid" 2>/dev/null
	wait 2>/dev/null
	tap_total
	exit
}

# QEMU with the monitor on a pair of FIFOs: commands go into mon.in, replies come out of mon.out.
args=(-m 256M -display none -vga std -no-reboot -nic none
      -device qemu-xhci,id=xhci -drive "if=none,id=stick,format=raw,snapshot=on,file=$image"
      -device usb-storage,bus=xhci.0,drive=stick,bootindex=0
      -chardev "file,id=console,path=$log" -serial chardev:console
      -chardev "pipe,id=mon,path=$dir/mon" -mon chardev=mon,mode=readline)
if [ "$accel" = kvm ]; then args+=(-accel kvm); else args+=(-accel tcg -cpu max); fi
if [ "$firmware" = uefi ]; then
	cp /usr/share/OVMF/OVMF_VARS_4M.fd "$dir/vars.fd"
	args+=(-M "${machine:-q35}" -drive "if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd"
	       -drive "if=pflash,format=raw,unit=1,file=$dir/vars.fd")
else
	args+=(-M "${machine:-pc}")
fi
mkfifo "$dir/mon.in" "$dir/mon.out"
: >"$log"
echo "screen test: $firmware, $image, serial log $log"
timeout -k 5 "$timeout_s" qemu-system-x86_64 "${args[@]}" </dev/null &
qpid=$!
cat "$dir/mon.out" >"$dir/monitor.log" &
exec 3>"$dir/mon.in"

# Wait for the summary (the kernel halts after it), then give the screen a moment to catch up.
for ((i = 0; i < timeout_s; i++)); do
	grep -aq '^ktest: summary:' "$log" && break
	kill -0 "$qpid" 2>/dev/null || break
	sleep 1
done
summary=$(grep -a '^ktest: summary:' "$log" | tr -d '\r' | tail -n 1)
check "the kernel printed its summary on serial" "$([ -n "$summary" ]; echo $?)" "none in $log after ${i}s"
[ -n "$summary" ] || finish
sleep 2
screen_line=$(grep -a '^screen: ' "$log" | tr -d '\r' | tail -n 1)
echo "# $screen_line"

# The screen's text, one line per row, into $dir/screen.txt.
case $screen_line in
"screen: VGA text 80x25"*)
	kind=vga
	echo "xp /2000xh 0xb8000" >&3
	sleep 2
	tr -d '\r' <"$dir/monitor.log" | grep -a '^00000000000b[89a-f]' | cut -d: -f2 | tr ' ' '\n' | grep . |
		while read -r cell; do
			c=$((cell & 255))
			[ $c -ge 32 ] && [ $c -lt 127 ] || c=63
			printf "\\x$(printf %02x $c)"
		done | fold -w 80 | sed 's/ *$//' >"$dir/screen.txt"
	;;
"screen: framebuffer"*)
	kind=fb
	echo "screendump $dir/screen.ppm" >&3
	for ((j = 0; j < 20; j++)); do [ -s "$dir/screen.ppm" ] && break; sleep 1; done
	sleep 1
	"$ppm_text" "$dir/screen.ppm" >"$dir/screen.txt"
	;;
*)
	kind=none
	: >"$dir/screen.txt"
	;;
esac
case $expect in
vga | fb) check "the kernel uses the expected screen ($expect)" "$([ "$kind" = "$expect" ]; echo $?)" \
	"it says \"$screen_line\"" ;;
*) check "the kernel uses a screen" "$([ "$kind" != none ]; echo $?)" "it says \"$screen_line\"" ;;
esac
echo "# the screen reads (build/screen/$name/screen.txt), last lines:"
grep . "$dir/screen.txt" | tail -n 4 | sed 's/^/#   | /'

grep -qxF -- "$summary" "$dir/screen.txt"
check "the summary line is on screen" $? "\"$summary\" is not among the screen's lines"

# The last page: the kernel clears the screen and leaves the run's result in its top 80x25.
grep -qx "Self-tests: PASSED" "$dir/screen.txt"
check "the verdict is on screen" $? "no line \"Self-tests: PASSED\""
grep -qE '^Memory: [0-9]+K present, [0-9]+K free$' "$dir/screen.txt"
check "the memory summary is on screen" $? "no \"Memory: ...K present, ...K free\" line"
[ "$(grep -cE '^  zone (DMA|DMA32|Normal) ' "$dir/screen.txt")" = 3 ]
check "one line per zone is on screen" $? "$(grep -cE '^  zone ' "$dir/screen.txt") zone lines"
zones=$(grep -E '^  zone (DMA|DMA32|Normal) ' "$dir/screen.txt" | grep -cv ' empty$')
[ "$(grep -cE '^  (DMA|DMA32|Normal) +\|[0-9A#R.]{64}\|$' "$dir/screen.txt")" = "$zones" ] && [ "$zones" -gt 0 ] &&
	grep -qxF "0-9 A largest free order, # allocated, R reserved, . hole" "$dir/screen.txt"
check "each zone's picture is on screen, under its legend" $? \
	"$(grep -E '^  (DMA|DMA32|Normal) +\|' "$dir/screen.txt")"
grep -qx "Failed cases: none" "$dir/screen.txt"
check "the screen says no case failed" $? "no line \"Failed cases: none\""
wide=$(sed 's/ *$//' "$dir/screen.txt" | awk 'length > 80' | head -n 3)
check "no line on screen is wider than 80 columns" "$([ -z "$wide" ]; echo $?)" "$wide"
below=$(sed 's/ *$//' "$dir/screen.txt" | tail -n +26 | grep . | head -n 3)
check "the page fits in 80x25 (nothing below row 25)" "$([ -z "$below" ]; echo $?)" "$below"
# The misuse self-tests' reports: the page allocator's and the slab allocator's.
reports=$(grep -acE '^BUG: (Bad page state|slab )' "$log")
grep -qx "$reports expected reports (misuse self-tests): on the serial port only." "$dir/screen.txt"
check "the screen counts the $reports expected reports the serial port got" $? \
	"no line \"$reports expected reports ...\""
! grep -q 'BUG:' "$dir/screen.txt"
check "no BUG: is on screen" $? "$(grep 'BUG:' "$dir/screen.txt" | head -n 2)"
# The whole boot report reached the screen, even under UEFI where it is long before the screen starts.
! grep -aq 'of output are on the serial port only' "$log"
check "everything printed before the screen started was shown on it" $? \
	"$(grep -a 'of output are on the serial port only' "$log" | tr -d '\r')"

finish
