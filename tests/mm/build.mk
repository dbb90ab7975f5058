# tests/mm/: the host harness of mm/ (simulated physical memory), host-only tests, the map replay,
# the mm fuzzer and the page-allocator benchmark.
HOST_SRCS += tests/mm/host_arch.c
