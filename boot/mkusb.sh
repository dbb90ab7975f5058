#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the USB stick image, without root and without loop devices: an MBR disk with one FAT32
# partition (type 0xEF, active) that is both the EFI system partition and GRUB's /boot.
#
#   sector 0        GRUB's boot.img (i386-pc) and the partition table
#   sectors 1..2047 GRUB's core.img for BIOS, found by boot.img at sector 1
#   1 MiB..         the FAT32 partition:
#                     /EFI/BOOT/BOOTX64.EFI  what UEFI firmware boots: GRUB or the direct loader
#                     /EFI/BOOT/GRUBX64.EFI  GRUB for UEFI
#                     /EFI/BOOT/LOADX64.EFI  the direct loader (boot/efi/)
#                     /boot/kernel.elf, /boot/cmdline.txt (read by the direct loader)
#                     /boot/grub/grub.cfg and GRUB's modules for both platforms
# Both GRUBs find the partition by its FAT serial number, so drive numbering does not matter.
#
#   boot/mkusb.sh OUT WORKDIR KERNEL LOADER GRUB_CFG CMDLINE_FILE UEFI_BOOT(grub|loader)
set -eu

OUT=$1 WORK=$2 KERNEL=$3 LOADER=$4 GRUB_CFG=$5 CMDLINE_FILE=$6 UEFI_BOOT=$7
GRUB_LIB=${GRUB_LIB:-/usr/lib/grub}
IMAGE_MIB=64
PART_START=2048                                  # sectors: the partition starts at 1 MiB
PART_SECTORS=$(((IMAGE_MIB << 11) - PART_START))
SERIAL=$(printf '%08X' $(( $(date +%s) & 0xffffffff )))
FS_UUID=${SERIAL:0:4}-${SERIAL:4:4}              # how GRUB names a FAT volume serial

case "$UEFI_BOOT" in
grub) DEFAULT_EFI=$WORK/grubx64.efi ;;
loader) DEFAULT_EFI=$LOADER ;;
*) echo "mkusb: UEFI_BOOT must be grub or loader, not '$UEFI_BOOT'" >&2; exit 1 ;;
esac

# le32 N: N as 4 little-endian bytes, in printf escapes.
le32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }

# chs LBA: the 3-byte cylinder/head/sector address of LBA for 255 heads, 63 sectors (capped).
chs() {
	local c=$(($1 / (255 * 63))) h=$(($1 / 63 % 255)) s=$(($1 % 63 + 1))
	[ $c -le 1023 ] || { c=1023; h=254; s=63; }
	printf '\\x%02x\\x%02x\\x%02x' $h $((s | (c >> 8) << 6)) $((c & 255))
}

# patch FILE OFFSET BYTES: writes printf-escaped BYTES at OFFSET.
patch() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }

# GRUB for BIOS (core.img, placed right after the MBR) and for UEFI, both with a first config
# that finds our partition and loads /boot/grub/grub.cfg and the modules from it.
make_grub() {
	printf '%s\n' "search --no-floppy --fs-uuid --set=root $FS_UUID" 'set prefix=($root)/boot/grub' \
		>"$WORK/early.cfg"
	grub-mkimage -O i386-pc -d "$GRUB_LIB/i386-pc" -c "$WORK/early.cfg" -p /boot/grub \
		-o "$WORK/core.img" biosdisk part_msdos fat search
	grub-mkimage -O x86_64-efi -d "$GRUB_LIB/x86_64-efi" -c "$WORK/early.cfg" -p /boot/grub \
		-o "$WORK/grubx64.efi" part_msdos part_gpt fat search
	local size
	size=$(stat -c %s "$WORK/core.img")
	[ "$size" -le $(((PART_START - 1) * 512)) ] ||
		{ echo "mkusb: core.img ($size bytes) does not fit before the partition" >&2; exit 1; }
}

# The FAT32 partition and everything on it.
make_esp() {
	local esp=$WORK/esp.img p
	rm -f "$esp"
	mkfs.fat -F 32 -n MINIKERNEL -i "$SERIAL" -h $PART_START -C "$esp" $((PART_SECTORS / 2)) >/dev/null
	export MTOOLS_SKIP_CHECK=1
	mmd -i "$esp" ::/EFI ::/EFI/BOOT ::/boot ::/boot/grub ::/boot/grub/i386-pc ::/boot/grub/x86_64-efi
	mcopy -i "$esp" "$DEFAULT_EFI" ::/EFI/BOOT/BOOTX64.EFI
	mcopy -i "$esp" "$WORK/grubx64.efi" ::/EFI/BOOT/GRUBX64.EFI
	mcopy -i "$esp" "$LOADER" ::/EFI/BOOT/LOADX64.EFI
	objcopy --strip-debug "$KERNEL" "$WORK/kernel.elf" # as boot/mkiso.sh: GRUB loads the whole file
	mcopy -i "$esp" "$WORK/kernel.elf" ::/boot/kernel.elf
	mcopy -i "$esp" "$CMDLINE_FILE" ::/boot/cmdline.txt
	mcopy -i "$esp" "$GRUB_CFG" ::/boot/grub/grub.cfg
	for p in i386-pc x86_64-efi; do
		mcopy -i "$esp" "$GRUB_LIB/$p"/*.mod "$GRUB_LIB/$p"/*.lst ::/boot/grub/$p/
	done
}

# Sector 0: boot.img's code, one active partition of type 0xEF, the boot signature.
make_mbr() {
	local mbr=$WORK/mbr.img end=$((PART_START + PART_SECTORS - 1))
	head -c 440 "$GRUB_LIB/i386-pc/boot.img" >"$mbr"
	head -c 72 /dev/zero >>"$mbr"
	patch "$mbr" $((0x66)) '\x90\x90'            # as grub-install does for disks: trust only DL 0x80..
	patch "$mbr" 440 "$(le32 $((0x$SERIAL)))"     # disk signature
	patch "$mbr" 446 "\\x80$(chs $PART_START)\\xef$(chs $end)$(le32 $PART_START)$(le32 $PART_SECTORS)"
	patch "$mbr" 510 '\x55\xaa'
}

mkdir -p "$WORK"
make_grub
make_esp
make_mbr
{
	cat "$WORK/mbr.img" "$WORK/core.img"
	head -c $((PART_START * 512 - 512 - $(stat -c %s "$WORK/core.img"))) /dev/zero
	cat "$WORK/esp.img"
} >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "mkusb: $OUT: $IMAGE_MIB MiB, UEFI boots $UEFI_BOOT (\\EFI\\BOOT\\BOOTX64.EFI), FAT serial $FS_UUID"
