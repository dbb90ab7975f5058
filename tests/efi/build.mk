# SPDX-License-Identifier: MIT
# Host tests of the EFI loader's ELF checks, of the multiboot2 structure it builds (read back
# with the kernel's parser) and of how it reads the command line file; they run in the host test
# binary with every other suite.
HOST_SRCS += boot/efi/elf_load.c boot/efi/mbi.c tests/efi/loader_test.c
HOST_SRCS += boot/efi/cmdline_file.c tests/efi/cmdline_file_test.c
