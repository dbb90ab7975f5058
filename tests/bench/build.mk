# tests/bench/: the page-allocator benchmark. In the kernel it runs when the command line says
# "bench"; on the host, `make bench` runs it over simulated memory (tests/mm/bench_main.c).
KERNEL_SRCS += tests/bench/page_alloc_bench.c
