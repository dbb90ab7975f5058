/* SPDX-License-Identifier: MIT */
/*
 * The direct UEFI loader (BOOTX64.EFI or LOADX64.EFI on the stick): loads \boot\kernel.elf from
 * the FAT volume it was started from at the kernel's physical addresses, reads the command line
 * from \boot\cmdline.txt, leaves the firmware's boot services, and enters the kernel's 64-bit entry
 * _start64 with a multiboot2 information structure, as GRUB would (RDI = 0x36d76289, RSI = its
 * physical address). Any failure before that is reported on screen and serial, and the loader
 * returns to the firmware: it never jumps into a half-loaded kernel.
 */
#include <efi.h>
#include <efilib.h>
#include "boot/efi/cmdline_file.h"
#include "boot/efi/elf_load.h"
#include "boot/efi/mbi.h"
#include "boot/efi/say.h"

#define LOADER_NAME "minimal-kernel EFI loader 1.0"
#define KERNEL_PATH L"\\boot\\kernel.elf"
#define CMDLINE_PATH L"\\boot\\cmdline.txt"
#define KERNEL_MAX_SIZE (64u << 20)
#define CMDLINE_MAX 4096
#define EXIT_TRIES 5          /* ExitBootServices attempts with a fresh map */
#define MAP_SLACK_DESCS 16    /* room for descriptors that appear after the size was asked */
#define FAIL_PAUSE_US (10 * 1000 * 1000)

static EFI_GUID acpi20_guid = ACPI_20_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;

/* What the loader holds, so that a failure can give it all back to the firmware. */
struct loader {
	EFI_HANDLE image;
	EFI_FILE_HANDLE root;
	struct kernel_image kernel;
	int kernel_allocated;
	int exit_tried;       /* ExitBootServices was called: boot services may be gone */
	char cmdline[CMDLINE_MAX];
	struct mbi_input mbi_in;
	void *map;
	UINTN map_cap;
	EFI_PHYSICAL_ADDRESS mbi;
	UINTN mbi_pages;
	const char *map_refused;  /* why the final memory map cannot be passed (mbi_input_error) */
};

/* Opens the root directory of the volume this loader was read from. */
static EFI_STATUS open_boot_volume(struct loader *ld)
{
	EFI_LOADED_IMAGE *li;
	EFI_STATUS st = BS->HandleProtocol(ld->image, &gEfiLoadedImageProtocolGuid, (void **)&li);

	if (EFI_ERROR(st)) {
		say(L"loader: cannot get the loaded image protocol: %r\n", st);
		return st;
	}
	ld->root = LibOpenRoot(li->DeviceHandle);
	if (!ld->root) {
		say(L"loader: cannot open the file system the loader was started from\n");
		return EFI_NOT_FOUND;
	}
	return EFI_SUCCESS;
}

/* Reads a whole file of at most max bytes into a new pool buffer; *size gets its length. */
static EFI_STATUS read_file(struct loader *ld, CHAR16 *path, UINTN max, void **buf, UINTN *size)
{
	EFI_FILE_HANDLE fh;
	EFI_FILE_INFO *info;
	EFI_STATUS st = ld->root->Open(ld->root, &fh, path, EFI_FILE_MODE_READ, 0);

	if (EFI_ERROR(st))
		return st;
	st = EFI_OUT_OF_RESOURCES;
	info = LibFileInfo(fh);
	if (info && info->FileSize <= max && (*buf = AllocatePool(info->FileSize + 1)) != NULL) {
		*size = info->FileSize;
		st = fh->Read(fh, size, *buf);
		if (!EFI_ERROR(st) && *size != info->FileSize)
			st = EFI_END_OF_FILE;
		if (EFI_ERROR(st))
			FreePool(*buf);
	} else if (info) {
		say(L"loader: %s is %ld bytes, more than the %ld this loader reads\n", path,
		    info->FileSize, (UINT64)max);
	}
	if (info)
		FreePool(info);
	fh->Close(fh);
	return st;
}

static const char *const efi_type_names[] = {
	"reserved", "loader code", "loader data", "boot services code", "boot services data",
	"runtime services code", "runtime services data", "conventional", "unusable",
	"ACPI reclaim", "ACPI NVS", "MMIO", "MMIO port space", "PAL code", "persistent",
};

static const char *efi_type_name(UINT32 type)
{
	return type < sizeof(efi_type_names) / sizeof(efi_type_names[0]) ? efi_type_names[type] : "other";
}

/* Prints the firmware's memory map entries that overlap [start, end), to explain a refusal. */
static void show_map_around(UINT64 start, UINT64 end)
{
	UINTN n, key, dsize;
	UINT32 dver;
	UINT8 *map = (UINT8 *)LibMemoryMap(&n, &key, &dsize, &dver);

	for (UINTN i = 0; map && i < n; i++) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)(map + i * dsize);
		UINT64 dend = d->PhysicalStart + d->NumberOfPages * EFI_PAGE_SIZE;
		if (d->PhysicalStart < end && start < dend)
			say(L"loader:   [%016lx-%016lx) EFI type %d (%a)\n", d->PhysicalStart, dend, d->Type,
			    efi_type_name(d->Type));
	}
	if (map)
		FreePool(map);
}

/* Reads and checks the kernel, takes its physical range from the firmware, and copies it there. */
static EFI_STATUS load_kernel(struct loader *ld)
{
	void *file;
	UINTN size;
	const char *err;
	EFI_STATUS st = read_file(ld, KERNEL_PATH, KERNEL_MAX_SIZE, &file, &size);

	if (EFI_ERROR(st)) {
		say(L"loader: cannot read the kernel %s: %r\n", KERNEL_PATH, st);
		return st;
	}
	if ((err = elf_check(file, size, &ld->kernel)) != NULL) {
		say(L"loader: %s is not a kernel this loader can start: %a\n", KERNEL_PATH, err);
		if (ld->kernel.bad_seg >= 0)
			say(L"loader: (program header %d)\n", ld->kernel.bad_seg);
		FreePool(file);
		return EFI_LOAD_ERROR;
	}
	EFI_PHYSICAL_ADDRESS at = ld->kernel.phys_start;
	UINTN pages = (ld->kernel.phys_end - ld->kernel.phys_start) / EFI_PAGE_SIZE;
	/* Loader code, not data: firmware that marks loader data no-execute must let _start64 run. */
	st = BS->AllocatePages(AllocateAddress, EfiLoaderCode, pages, &at);
	if (EFI_ERROR(st)) {
		say(L"loader: the kernel loads at physical [%lx-%lx), but the firmware will not give that "
		    L"memory (%r); it holds there:\n", ld->kernel.phys_start, ld->kernel.phys_end, st);
		show_map_around(ld->kernel.phys_start, ld->kernel.phys_end);
		say(L"loader: link the kernel at a physical address this machine leaves free\n");
		FreePool(file);
		return st;
	}
	ld->kernel_allocated = 1;
	elf_load(file, &ld->kernel, (UINT8 *)(UINTN)at);
	FreePool(file);
	return EFI_SUCCESS;
}

/*
 * Reads the command line file, if there is one: its bytes are the command line, exactly (one line
 * end at its very end aside). A file that is not one line of printable ASCII is refused.
 */
static EFI_STATUS read_cmdline(struct loader *ld)
{
	char *text;
	UINTN size;
	size_t bad = (size_t)-1;
	const char *err;
	EFI_STATUS st = read_file(ld, CMDLINE_PATH, CMDLINE_MAX + 1, (void **)&text, &size);

	ld->cmdline[0] = 0;
	if (st == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (EFI_ERROR(st)) {
		say(L"loader: cannot read the command line %s: %r\n", CMDLINE_PATH, st);
		return st;
	}
	err = cmdline_from_file(text, size, ld->cmdline, sizeof(ld->cmdline), &bad);
	if (err && bad < size)
		say(L"loader: %s: %a (byte %d is 0x%x)\n", CMDLINE_PATH, err, (int)bad,
		    (unsigned)(UINT8)text[bad]);
	else if (err)
		say(L"loader: %s: %a\n", CMDLINE_PATH, err);
	FreePool(text);
	return err ? EFI_INVALID_PARAMETER : EFI_SUCCESS;
}

/* Position and width of a colour field given as a bit mask. */
static void mask_field(UINT32 mask, UINT8 *pos, UINT8 *size)
{
	*pos = mask ? (UINT8)__builtin_ctz(mask) : 0;
	*size = (UINT8)__builtin_popcount(mask);
}

/* The GOP framebuffer, if the firmware has one the kernel can draw into (not blit-only). */
static void find_framebuffer(struct boot_framebuffer *fb)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info;
	UINT32 r = 0xff, g = 0xff00, b = 0xff0000, x = 0xff000000;

	if (EFI_ERROR(LibLocateProtocol(&gEfiGraphicsOutputProtocolGuid, (void **)&gop)) || !gop->Mode)
		return;
	info = gop->Mode->Info;
	if (info->PixelFormat == PixelBlueGreenRedReserved8BitPerColor) {
		r = 0xff0000;
		b = 0xff;
	} else if (info->PixelFormat == PixelBitMask) {
		r = info->PixelInformation.RedMask;
		g = info->PixelInformation.GreenMask;
		b = info->PixelInformation.BlueMask;
		x = info->PixelInformation.ReservedMask;
	} else if (info->PixelFormat != PixelRedGreenBlueReserved8BitPerColor) {
		return;   /* PixelBltOnly: no framebuffer to write */
	}
	fb->bpp = (UINT8)(32 - __builtin_clz(r | g | b | x));
	fb->bpp = (UINT8)((fb->bpp + 7) & ~7);
	fb->addr = gop->Mode->FrameBufferBase;
	fb->width = info->HorizontalResolution;
	fb->height = info->VerticalResolution;
	fb->pitch = info->PixelsPerScanLine * (fb->bpp / 8);
	fb->type = 1;
	mask_field(r, &fb->red_pos, &fb->red_size);
	mask_field(g, &fb->green_pos, &fb->green_size);
	mask_field(b, &fb->blue_pos, &fb->blue_size);
}

/* The ACPI RSDP from the configuration table: ACPI 2.0+ preferred. */
static void find_rsdp(struct mbi_input *in)
{
	for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &ST->ConfigurationTable[i];
		if (!CompareGuid(&t->VendorGuid, &acpi20_guid)) {
			in->rsdp = t->VendorTable;
			in->rsdp_size = *(UINT32 *)((UINT8 *)t->VendorTable + 20);   /* RSDP length */
			in->rsdp_v2 = 1;
			if (in->rsdp_size >= 36 && in->rsdp_size <= 4096)
				return;
		}
	}
	in->rsdp_v2 = 0;
	in->rsdp = NULL;
	in->rsdp_size = 0;
	for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
		if (!CompareGuid(&ST->ConfigurationTable[i].VendorGuid, &acpi10_guid)) {
			in->rsdp = ST->ConfigurationTable[i].VendorTable;
			in->rsdp_size = 20;
		}
	}
}

/* Allocates the map buffer and, below 4 GiB, the information structure, with room to spare. */
static EFI_STATUS alloc_boot_buffers(struct loader *ld, UINTN slack_descs)
{
	UINTN size = 0, key, dsize;
	UINT32 dver;
	EFI_STATUS st = BS->GetMemoryMap(&size, NULL, &key, &dsize, &dver);

	if (st != EFI_BUFFER_TOO_SMALL)
		return EFI_ERROR(st) ? st : EFI_DEVICE_ERROR;
	ld->map_cap = size + (slack_descs + 4) * dsize;   /* + the two allocations made here */
	ld->map = AllocatePool(ld->map_cap);
	UINTN bound = mbi_size_bound(strlena((CHAR8 *)ld->cmdline), sizeof(LOADER_NAME),
				     ld->map_cap, ld->mbi_in.rsdp_size);
	ld->mbi_pages = EFI_SIZE_TO_PAGES(bound);
	ld->mbi = 0xffffffff;
	st = BS->AllocatePages(AllocateMaxAddress, EfiLoaderData, ld->mbi_pages, &ld->mbi);
	if (!ld->map || EFI_ERROR(st)) {
		ld->mbi = 0;
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

static void free_boot_buffers(struct loader *ld)
{
	if (ld->map)
		FreePool(ld->map);
	if (ld->mbi)
		BS->FreePages(ld->mbi, ld->mbi_pages);
	ld->map = NULL;
	ld->mbi = 0;
}

/*
 * Takes the final memory map, builds the information structure from it, and exits boot services
 * with its key; a stale key (EFI_INVALID_PARAMETER) means the map changed: take it again. Nothing
 * here allocates or prints between GetMemoryMap and ExitBootServices. *tried tells whether
 * ExitBootServices was called, after which only COM1 can report a failure.
 */
static EFI_STATUS try_exit_boot_services(struct loader *ld, int *tried)
{
	EFI_STATUS st = EFI_INVALID_PARAMETER;

	for (int i = 0; i < EXIT_TRIES && st == EFI_INVALID_PARAMETER; i++) {
		UINTN size = ld->map_cap, key, dsize;
		UINT32 dver;
		st = BS->GetMemoryMap(&size, ld->map, &key, &dsize, &dver);
		if (EFI_ERROR(st))
			return st;
		ld->mbi_in.efi_map = ld->map;
		ld->mbi_in.efi_map_size = size;
		ld->mbi_in.efi_desc_size = (UINT32)dsize;
		ld->mbi_in.efi_desc_version = dver;
		if ((ld->map_refused = mbi_input_error(&ld->mbi_in)) != NULL)
			return EFI_UNSUPPORTED;
		if (!mbi_build((void *)(UINTN)ld->mbi, ld->mbi_pages * EFI_PAGE_SIZE, &ld->mbi_in))
			return EFI_BUFFER_TOO_SMALL;
		*tried = 1;
		st = BS->ExitBootServices(ld->image, key);
	}
	return st;
}

/* Leaves boot services, growing the buffers while the map outgrows them (before the first try). */
static EFI_STATUS exit_boot_services(struct loader *ld)
{
	int tried = 0;
	EFI_STATUS st = EFI_BUFFER_TOO_SMALL;

	for (UINTN slack = MAP_SLACK_DESCS; st == EFI_BUFFER_TOO_SMALL && !tried && slack < 1024; slack *= 4) {
		free_boot_buffers(ld);
		st = alloc_boot_buffers(ld, slack);
		if (EFI_ERROR(st)) {
			say(L"loader: cannot allocate the memory map and boot information: %r\n", st);
			return st;
		}
		st = try_exit_boot_services(ld, &tried);
	}
	ld->exit_tried = tried;
	if (!EFI_ERROR(st))
		return st;
	if (tried)
		say_serial_only();
	if (ld->map_refused)
		say(L"loader: the firmware's memory map cannot be passed to the kernel: %a\n", ld->map_refused);
	else
		say(L"loader: %a failed: %r\n", tried ? "ExitBootServices" : "GetMemoryMap", st);
	return st;
}

/* Jumps to the kernel's 64-bit entry; never returns. */
static void __attribute__((noreturn)) enter_kernel(UINT64 entry, UINT64 mbi)
{
	__asm__ volatile("cli\n\tjmp *%0"
			 : : "a"(entry), "D"((UINT64)MB2_BOOTLOADER_MAGIC), "S"(mbi) : "memory");
	__builtin_unreachable();
}

/* Gives back what a failed attempt holds, and leaves the message readable for a while. */
static EFI_STATUS give_up(struct loader *ld, EFI_STATUS st)
{
	free_boot_buffers(ld);
	if (ld->kernel_allocated)
		BS->FreePages(ld->kernel.phys_start,
			      (ld->kernel.phys_end - ld->kernel.phys_start) / EFI_PAGE_SIZE);
	if (ld->root)
		ld->root->Close(ld->root);
	say(L"loader: not starting the kernel; returning to the firmware in 10 seconds\n");
	BS->Stall(FAIL_PAUSE_US);
	return st;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static struct loader ld;
	EFI_STATUS st;

	InitializeLib(image, systab);
	say_init();
	BS->SetWatchdogTimer(0, 0, 0, NULL);
	ld.image = image;
	say(L"%a: loading %s\n", LOADER_NAME, KERNEL_PATH);
	if (EFI_ERROR((st = open_boot_volume(&ld))) || EFI_ERROR((st = load_kernel(&ld))) ||
	    EFI_ERROR((st = read_cmdline(&ld))))
		return give_up(&ld, st);
	ld.mbi_in.cmdline = ld.cmdline;
	ld.mbi_in.loader_name = LOADER_NAME;
	ld.mbi_in.efi_system_table = (UINT64)(UINTN)systab;
	find_framebuffer(&ld.mbi_in.fb);
	find_rsdp(&ld.mbi_in);
	say(L"loader: kernel at [%lx-%lx), entry %lx, command line \"%a\", framebuffer %dx%d at %lx\n",
	    ld.kernel.phys_start, ld.kernel.phys_end, ld.kernel.entry, ld.cmdline, ld.mbi_in.fb.width,
	    ld.mbi_in.fb.height, ld.mbi_in.fb.addr);
	st = exit_boot_services(&ld);
	if (!EFI_ERROR(st))
		enter_kernel(ld.kernel.entry, ld.mbi);
	if (!ld.exit_tried)
		return give_up(&ld, st);
	say(L"loader: the firmware may have shut down its services: halting; reset the machine\n");
	for (;;)
		__asm__ volatile("cli; hlt");
}
