# mm/: the memory manager. Everything but the text-map parser goes into the kernel; all of it
# builds for the host, where it runs over simulated physical memory (tests/mm/host_arch.c).
MM_HOST_ONLY := mm/fw_map_parse.c
KERNEL_SRCS += $(filter-out $(MM_HOST_ONLY),$(wildcard mm/*.c))
HOST_SRCS   += $(wildcard mm/*.c)
