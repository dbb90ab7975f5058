# Host tests of the EFI loader's ELF checks and of the multiboot2 structure it builds (read back
# with the kernel's parser); they run in the host test binary with every other suite.
HOST_SRCS += boot/efi/elf_load.c boot/efi/mbi.c tests/efi/loader_test.c
