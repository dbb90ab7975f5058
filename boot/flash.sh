#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes the USB image to a USB stick, after checking that the device really is a removable USB
# disk that nothing uses, and verifies the write by reading it back.
#
#   boot/flash.sh IMAGE DEV          (make flash DEV=/dev/sdX)
#
# Refuses, saying why, when DEV is not a whole-disk block device, is not removable or not on USB,
# has no medium or is smaller than the image, has a partition that is mounted, used as swap or held
# by the device mapper, or holds the running system's root or boot filesystem. Shows vendor, model
# and size and asks for confirmation (YES=1 skips the question).
#
# Where it looks, so that tests can point it at fake device trees:
#   FLASH_SYSFS     sysfs root            (default /sys)
#   FLASH_MOUNTS    the mount table       (default /proc/self/mounts)
#   FLASH_SWAPS     the swap table        (default /proc/swaps)
#   FLASH_DEV_ROOT  the device directory  (default /dev); under any other root a regular file
#                   stands for the device node.
set -u

SYSFS=${FLASH_SYSFS:-/sys}
MOUNTS=${FLASH_MOUNTS:-/proc/self/mounts}
SWAPS=${FLASH_SWAPS:-/proc/swaps}
DEV_ROOT=${FLASH_DEV_ROOT:-/dev}
YES=${YES:-}

die() {
	echo "flash: $*" >&2
	exit 1
}

usage() {
	echo "usage: make flash DEV=/dev/sdX   (boot/flash.sh IMAGE DEV)" >&2
	echo "USB disks seen now:" >&2
	list_usb_disks >&2
	exit 2
}

# Prints one line per removable USB disk in sysfs, to help choose DEV.
list_usb_disks() {
	local d n found=0
	for d in "$SYSFS"/class/block/*; do
		[ -e "$d" ] || continue
		n=${d##*/}
		[ -e "$d/partition" ] && continue
		is_usb "$n" && [ "$(cat "$d/removable" 2>/dev/null)" = 1 ] || continue
		echo "  $DEV_ROOT/$n: $(describe "$n")"
		found=1
	done
	[ $found = 1 ] || echo "  (none)"
}

# sysfs_dir NAME: the real sysfs directory of block device NAME.
sysfs_dir() {
	readlink -f "$SYSFS/class/block/$1"
}

# is_usb NAME: true when the device sits below a USB controller in the sysfs device tree.
is_usb() {
	case "$(sysfs_dir "$1")" in
	*/usb[0-9]*/*) return 0 ;;
	esac
	return 1
}

# size_bytes NAME: the capacity of NAME (sysfs counts 512-byte sectors whatever the block size).
size_bytes() {
	local sectors
	sectors=$(cat "$SYSFS/class/block/$1/size" 2>/dev/null) || sectors=0
	echo $((sectors * 512))
}

# human BYTES: e.g. "15.6 GiB".
human() {
	awk -v b="$1" 'BEGIN { split("B KiB MiB GiB TiB", u); i = 1;
		while (b >= 1024 && i < 5) { b /= 1024; i++ } printf "%.1f %s\n", b, u[i] }'
}

# describe NAME: "vendor model, size".
describe() {
	local dir=$SYSFS/class/block/$1 vendor model
	vendor=$(tr -s " " 2>/dev/null <"$dir/device/vendor" | sed 's/ *$//')
	model=$(tr -s " " 2>/dev/null <"$dir/device/model" | sed 's/ *$//')
	echo "${vendor:-unknown vendor} ${model:-unknown model}, $(human "$(size_bytes "$1")")"
}

# partitions NAME: the partitions of disk NAME, one per line.
partitions() {
	local p
	for p in "$(sysfs_dir "$1")"/*/partition; do
		[ -e "$p" ] || continue
		p=${p%/partition}
		echo "${p##*/}"
	done
}

# disks_of NAME: the whole disks a block device lives on (itself, its parent disk, or the disks
# under a device-mapper or RAID device), one per line.
disks_of() {
	local dir slave
	dir=$(sysfs_dir "$1")
	[ -d "$dir" ] || return 0
	if [ -e "$dir/partition" ]; then
		dir=${dir%/*}
		echo "${dir##*/}"
		return 0
	fi
	if [ -n "$(ls -A "$dir/slaves" 2>/dev/null)" ]; then
		for slave in "$dir"/slaves/*; do
			disks_of "${slave##*/}"
		done
		return 0
	fi
	echo "$1"
}

# block_name SOURCE: the sysfs name of a mount or swap source ("/dev/sdb1" -> "sdb1"), or nothing
# when it is not a block device of this machine (tmpfs, overlay, network filesystems ...).
block_name() {
	local src=$1 n
	src=$(printf '%b' "${src//\\/\\0}")         # undo the octal escapes of the mount table
	case "$src" in
	"$DEV_ROOT"/* | /dev/*) ;;
	*) return 0 ;;
	esac
	[ -e "$src" ] && src=$(readlink -f "$src")
	n=${src##*/}
	[ -e "$SYSFS/class/block/$n" ] && echo "$n"
}

# mount_sources MOUNTPOINT: the block names mounted at MOUNTPOINT.
mount_sources() {
	local src mnt rest
	while read -r src mnt rest; do
		[ "$(printf '%b' "${mnt//\\/\\0}")" = "$1" ] && block_name "$src"
	done <"$MOUNTS"
}

# check_not_system_disk DISK: refuses when the root or boot filesystem lives on DISK.
check_not_system_disk() {
	local mnt src d
	for mnt in / /boot /boot/efi /efi; do
		for src in $(mount_sources "$mnt"); do
			for d in $(disks_of "$src"); do
				[ "$d" = "$1" ] || continue
				[ "$mnt" = / ] && die "$DEV holds the running system's root filesystem ($src on /): refusing to overwrite it"
				die "$DEV holds the running system's boot filesystem ($src on $mnt): refusing to overwrite it"
			done
		done
	done
}

# check_unused DISK: refuses when DISK or a partition of it is mounted, swap, or held by the
# device mapper (LVM, RAID, encryption).
check_unused() {
	local names n src mnt rest holders
	names=" $1 $(partitions "$1" | tr '\n' ' ')"
	while read -r src mnt rest; do
		n=$(block_name "$src")
		[ -n "$n" ] && [ "${names/ $n /}" != "$names" ] &&
			die "$DEV is mounted: $src on $(printf '%b' "${mnt//\\/\\0}"); unmount it first (umount $src)"
	done <"$MOUNTS"
	if [ -r "$SWAPS" ]; then
		while read -r src rest; do
			n=$(block_name "$src")
			[ -n "$n" ] && [ "${names/ $n /}" != "$names" ] &&
				die "$DEV is in use as swap: $src; turn it off first (swapoff $src)"
		done < <(tail -n +2 "$SWAPS")
	fi
	for n in $names; do
		holders=$(ls -A "$(sysfs_dir "$n")/holders" 2>/dev/null | tr '\n' ' ')
		[ -n "$holders" ] &&
			die "$DEV is in use: $n is held by ${holders% } (LVM, RAID or encryption); release it first"
	done
	return 0
}

# check_cmdline: refuses an image whose command line is not known, or is not the one asked for.
check_cmdline() {
	local built wanted
	[ -f "$IMAGE.cmdline" ] ||
		die "$IMAGE has no record of its command line ($IMAGE.cmdline): build it again with make usb"
	built=$(cat "$IMAGE.cmdline")
	if [ "${FLASH_CMDLINE_GIVEN:-}" = 1 ]; then
		wanted=${KERNEL_CMDLINE-}
		[ "$built" = "$wanted" ] || die "$IMAGE was built with the command line \"$built\", not \"$wanted\":" \
			"run make usb CMDLINE=$(printf %q "$wanted") first (or make flash without CMDLINE= to write it as it is)"
	fi
	echo "flash: $IMAGE boots the kernel with the command line \"$built\""
}

# check_device: resolves DEV to a sysfs name in NAME and runs every check on it.
check_device() {
	local real
	[ -e "$DEV" ] || die "$DEV does not exist"
	real=$(readlink -f "$DEV")
	if [ "$DEV_ROOT" = /dev ] || [ ! -f "$real" ]; then
		[ -b "$real" ] || die "$DEV is not a block device"
	fi
	NAME=${real##*/}
	[ -e "$SYSFS/class/block/$NAME" ] || die "$DEV ($NAME) is not a block device known to sysfs ($SYSFS/class/block/$NAME)"
	if [ -e "$SYSFS/class/block/$NAME/partition" ]; then
		die "$DEV is a partition of $(disks_of "$NAME"), not a whole disk: give the disk, DEV=$DEV_ROOT/$(disks_of "$NAME")"
	fi
	[ "$(cat "$SYSFS/class/block/$NAME/removable" 2>/dev/null)" = 1 ] ||
		die "$DEV ($(describe "$NAME")) is not a removable disk: refusing (a USB stick is removable)"
	is_usb "$NAME" || die "$DEV ($(describe "$NAME")) is not on USB: refusing (only USB sticks are written)"
	[ "$(size_bytes "$NAME")" -gt 0 ] || die "$DEV has no medium (size 0)"
	[ "$(size_bytes "$NAME")" -ge "$IMAGE_SIZE" ] ||
		die "$DEV ($(describe "$NAME")) is smaller than the image ($(human "$IMAGE_SIZE"))"
	check_not_system_disk "$NAME"
	check_unused "$NAME"
}

# confirm: asks before destroying the stick's contents, unless YES=1.
confirm() {
	local answer
	echo "flash: about to write $IMAGE ($(human "$IMAGE_SIZE")) to $DEV: $(describe "$NAME")"
	echo "flash: everything on $DEV will be lost."
	if [ "$YES" = 1 ]; then
		echo "flash: YES=1 given, not asking"
		return 0
	fi
	printf 'flash: type "yes" to write: '
	read -r answer || answer=
	[ "$answer" = yes ] || die "not confirmed (answer \"$answer\"): nothing written"
}

# write_image: copies the image, flushing to the device before returning.
write_image() {
	echo "flash: writing..."
	$SUDO dd if="$IMAGE" of="$DEV" bs=4M conv=fsync,notrunc status=none ||
		die "writing $DEV failed (dd exit $?); the stick may now hold a partial image"
	sync
}

# verify_image: reads back as many bytes as the image holds, bypassing the cache on real devices.
verify_image() {
	local want got direct=
	echo "flash: verifying..."
	want=$(sha256sum <"$IMAGE" | cut -d' ' -f1)
	[ -b "$DEV" ] && direct=iflag=direct
	got=$($SUDO dd if="$DEV" bs=1M $direct status=none | head -c "$IMAGE_SIZE" | sha256sum | cut -d' ' -f1)
	[ "$want" = "$got" ] ||
		die "verification failed: $DEV reads back sha256 $got, the image is $want; the stick may be faulty"
	echo "flash: verified: sha256 $want"
	echo "flash: done; $DEV can be removed and booted (BIOS or UEFI, Secure Boot off)"
}

[ $# -eq 2 ] || usage
IMAGE=$1
DEV=$2
[ -n "$DEV" ] || usage
[ -f "$IMAGE" ] || die "image $IMAGE not found: build it first with make usb (CMDLINE=... for a command line)"
IMAGE_SIZE=$(stat -c %s "$IMAGE")
NAME=
check_cmdline
check_device
SUDO=
if [ ! -w "$DEV" ]; then
	[ "$(id -u)" = 0 ] && die "$DEV is not writable"
	command -v sudo >/dev/null || die "$DEV is not writable by $(id -un) and sudo is missing: run as root"
	echo "flash: $DEV is not writable by $(id -un): using sudo for dd"
	SUDO=sudo
fi
confirm
write_image
verify_image
