# SPDX-License-Identifier: MIT
# Tests: every tests/*/build.mk adds its sources and its steps to TEST_STEPS; this file adds the
# host suites first and the QEMU matrix last, and defines `make test`.
TEST_STEPS := test-host
# A wildcard on purpose: each directory of tests/ is one kind of test that adds itself, so a
# new kind needs no line here. The fragments outside tests/ are a fixed list (Makefile).
include $(wildcard tests/*/build.mk)

.PHONY: test-host
test-host: $(HOST_KTEST)
	$(HOST_KTEST)

# The QEMU matrix: every image boots and runs every self-test, and every step checks that the
# kernel brought up the CPUs it was given. Name, firmware, medium, memory, machine, CPUs, CPU
# model (max: all QEMU emulates; qemu64: an old CPU, without 1 GiB pages or x2APIC). Between them
# the steps boot 1, 2, 4 and 8 CPUs under the BIOS and under UEFI, on both CPU models.
QEMU_RUN = tests/qemu/run.sh --accel $(ACCEL) --timeout $(TIMEOUT)
comma := ,
smp_line = smp: Brought up $(or $(2),1) node$(if $(filter-out 1,$(or $(2),1)),s), $(1) CPU$(if $(filter 1,$(1)),,s)
# require_line LOG TEXT: the log has a line that is exactly TEXT (serial lines end in CR LF).
require_line = @tr -d '\r' <$(1) | grep -qxF '$(2)' || { echo "$(1): no line \"$(2)\""; exit 1; }
# A boot with 5 GiB runs every suite over 20 times the pages (about 4 minutes of TCG here): it
# gets twice TIMEOUT (a later --timeout wins), so that a loaded machine does not turn a slow pass
# into a failure.
large_timeout = $(if $(filter 5G,$(1)),--timeout $(shell expr 2 \* $(TIMEOUT)))
define qemu_step
.PHONY: test-qemu-$(1)
test-qemu-$(1): $(B)/os.iso
	$(QEMU_RUN) $(call large_timeout,$(4)) --firmware $(2) --medium $(3) --mem $(4) --machine $(5) \
		--smp $(6) --cpu $(7) --image $(B)/os.iso --log $(B)/logs/qemu-$(1).log
	$(call require_line,$(B)/logs/qemu-$(1).log,$(call smp_line,$(6)))
	$(if $(8),@tests/qemu/require-lines.sh $(B)/logs/qemu-$(1).log $(8))
QEMU_STEPS += test-qemu-$(1)
endef
QEMU_STEPS :=
$(eval $(call qemu_step,bios-cdrom,bios,cdrom,256M,pc,2,max))
$(eval $(call qemu_step,bios-usb,bios,usb,256M,pc,2,max))
$(eval $(call qemu_step,uefi-cdrom,uefi,cdrom,256M,q35,2,max))
$(eval $(call qemu_step,uefi-usb,uefi,usb,256M,q35,1,qemu64))
# 7 MiB, the least that boots (tests/qemu/check-mem.sh): no 2 MiB block fits, so the cases that
# need one must skip, saying why, not fail.
$(eval $(call qemu_step,bios-7m,bios,cdrom,7M,pc,2,max))
$(eval $(call qemu_step,bios-64m-pc,bios,cdrom,64M,pc,1,qemu64))
$(eval $(call qemu_step,bios-64m-q35,bios,cdrom,64M,q35,4,qemu64))
$(eval $(call qemu_step,bios-1g-pc,bios,cdrom,1G,pc,1,max))
$(eval $(call qemu_step,bios-1g-q35,bios,cdrom,1G,q35,8,max))
# qemu64 has no 1 GiB pages: the direct map above 4 GiB is built of 2 MiB pages.
$(eval $(call qemu_step,bios-5g-pc,bios,cdrom,5G,pc,2,qemu64))
# 5 GiB: by default a CPU per full GiB of RAM initializes struct pages (kernel/memmap_cpus.h),
# so all 4 CPUs do.
$(eval $(call qemu_step,bios-5g-q35,bios,cdrom,5G,q35,4,max,'mm: struct pages initialized by 4 CPUs in 16 parts'))
$(eval $(call qemu_step,uefi-5g-q35,uefi,cdrom,5G,q35,4,max,'mm: struct pages initialized by 4 CPUs in 16 parts'))
$(eval $(call qemu_step,uefi-smp8,uefi,cdrom,256M,q35,8,qemu64))

# Eight CPUs on the old model: the boot report must also list the eight the MADT names
# (kernel/acpi.c).
.PHONY: test-qemu-bios-smp8
test-qemu-bios-smp8: $(B)/os.iso
	$(QEMU_RUN) --firmware bios --medium cdrom --mem 256M --machine pc --smp 8 --cpu qemu64 \
		--image $(B)/os.iso --log $(B)/logs/qemu-bios-smp8.log
	$(call require_line,$(B)/logs/qemu-bios-smp8.log,$(call smp_line,8))
	$(call require_line,$(B)/logs/qemu-bios-smp8.log,ACPI: MADT lists 8 CPUs (APIC ids 0 1 2 3 4 5 6 7)$(comma) local APIC at 0xfee00000)
QEMU_STEPS += test-qemu-bios-smp8

# $(call cmdline_step,NAME,MEM,SMP,CMDLINE,LINES): test-qemu-NAME boots a pc of MEM and SMP CPUs
# from $(B)/NAME/os.iso, whose GRUB entry passes CMDLINE, and requires each of LINES (each in
# single quotes) as a whole line of the serial log.
define cmdline_step
$(B)/$(1)/os.iso: $(KERNEL) boot/grub.cfg.in boot/mkgrubcfg.sh boot/mkiso.sh | deps
	$(Q)boot/mkiso.sh $(KERNEL) '$(4)' $$@
.PHONY: test-qemu-$(1)
test-qemu-$(1): $(B)/$(1)/os.iso
	$(QEMU_RUN) --firmware bios --medium cdrom --mem $(2) --machine pc --smp $(3) --image $$< \
		--cmdline-note "$(4)" --log $(B)/logs/qemu-$(1).log
	@tests/qemu/require-lines.sh $(B)/logs/qemu-$(1).log $(5)
QEMU_STEPS += test-qemu-$(1)
endef

# nr_cpus=1 on a machine of four CPUs: the kernel runs one and says why.
$(eval $(call cmdline_step,nr-cpus,256M,4,nr_cpus=1 ktest=smp$(comma)cmdline,\
	'$(call smp_line,1)' \
	'smp: running 1 of the 4 CPUs listed (nosmp or nr_cpus= on the command line)' \
	'mm: struct pages initialized by 1 CPU in 1 part'))

# The struct pages initialized by every CPU (kernel/memmap_cpus.h): on 4 CPUs and 2 GiB with
# memmap_init_cpus=4 each of them runs a part, and by default (less than 2 full GiB) the boot CPU
# alone does; either way
# every struct page names its frame's zone (memmap_zones) and the other CPUs come up afterwards.
$(eval $(call cmdline_step,memmap-cpus,2G,4,memmap_init_cpus=4 ktest=memmap_zones$(comma)smp$(comma)mm_buddy,\
	'$(call smp_line,4)' \
	'mm: struct pages initialized by 4 CPUs in 16 parts'))
$(eval $(call cmdline_step,memmap-cpus-off,2G,4,ktest=memmap_zones$(comma)smp,\
	'$(call smp_line,4)' \
	'mm: struct pages initialized by 1 CPU in 1 part'))

# hugepages= asking for more than there is: the pool takes every 2 MiB block it can, so the cases
# that need a large free block must skip, saying what they need, not fail. Each step checks the
# run passed, that cases did skip, and one reason. At 5 GiB (three 1 GiB pages, then 2 MiB ones)
# only the suites that need large blocks run: emptying and refilling a pool of 2 GiB for each
# case of hugetlb_pool would take minutes under TCG; the 256 MiB step runs every suite.
# $(call hugepages_step,NAME,MEM,MACHINE,CMDLINE)
require_match = @tr -d '\r' <$(1) | grep -qE '$(2)' || { echo "$(1): no line matching \"$(2)\""; exit 1; }
define hugepages_step
$(B)/$(1)/os.iso: $(KERNEL) boot/grub.cfg.in boot/mkgrubcfg.sh boot/mkiso.sh | deps
	$(Q)boot/mkiso.sh $(KERNEL) '$(4)' $$@
.PHONY: test-qemu-$(1)
test-qemu-$(1): $(B)/$(1)/os.iso
	$(QEMU_RUN) --firmware bios --medium cdrom --mem $(2) --machine $(3) --smp 2 --image $$< \
		--cmdline-note "$(4)" --log $(B)/logs/qemu-$(1).log
	$(call require_line,$(B)/logs/qemu-$(1).log,$(call smp_line,2))
	$(call require_line,$(B)/logs/qemu-$(1).log,mm: the hugetlb pool is smaller than the command line asked)
	$(call require_match,$(B)/logs/qemu-$(1).log,^# Totals: pass:[0-9]+ fail:0 skip:[1-9])
	$(call require_match,$(B)/logs/qemu-$(1).log,order9_page_is_mapped_by_one_pde # SKIP needs 1 free block of order 9)
QEMU_STEPS += test-qemu-$(1)
endef
$(eval $(call hugepages_step,hugepages-256m,256M,pc,hugepagesz=2M hugepages=100000))
$(eval $(call hugepages_step,hugepages-5g-q35,5G,q35,hugepagesz=1G hugepages=64 hugepagesz=2M hugepages=100000 \
	ktest=compound*$(comma)folio$(comma)hugetlb_boot$(comma)mm_buddy$(comma)mm_refcount$(comma)block_owner$(comma)slab$(comma)vmap_huge))

# Memory after boot (mm/memory_add.h): mem= keeps the top 64 MiB offline and reserve_mem= keeps
# 1 MiB reserved; the memory_add suite gives back and adds them, and the suites that walk every
# zone and pageblock run on the grown machine.
$(eval $(call cmdline_step,memory-add,256M,2,mem=192M reserve_mem=1M ktest=memory_add$(comma)show_mem$(comma)mobility,\
	'mm: mem=: RAM from 0xc000000 is offline (1 ranges)$(comma) for mm_add_memory() after boot' \
	'mm: gave back 0 KiB (0 multiboot2 modules: 0 KiB; 0 ACPI reclaimable ranges: 0 KiB)' \
	'    # memory_add: Totals: pass:7 fail:0 skip:0 total:7'))

# Four CPUs on the old model (xAPIC), one of which checks in after its deadline and one never
# (tests/ktest/kernel/smp_fault.c): the boot reports both, counts neither, and the suites that
# use every CPU (cross-CPU calls, the TLB shootdown) pass on the two it counted.
SMP_FAULT_DIR := $(B)/smp-fault
SMP_FAULT_CMDLINE := smp_fault=late:2,never:3 memmap_init_cpus=4 ktest=smp*,slab_irq,vmap_huge,cmdline
$(SMP_FAULT_DIR)/os.iso: $(KERNEL) boot/grub.cfg.in boot/mkgrubcfg.sh boot/mkiso.sh | deps
	$(Q)boot/mkiso.sh $(KERNEL) '$(SMP_FAULT_CMDLINE)' $@
.PHONY: test-qemu-smp-fault
test-qemu-smp-fault: $(SMP_FAULT_DIR)/os.iso
	$(QEMU_RUN) --firmware bios --medium cdrom --mem 256M --machine pc --smp 4 --cpu qemu64 \
		--image $< --cmdline-note "$(SMP_FAULT_CMDLINE)" --log $(B)/logs/qemu-smp-fault.log
	$(call require_line,$(B)/logs/qemu-smp-fault.log,$(call smp_line,2); 2 did not come up (APIC ids 2 3))
	$(call require_line,$(B)/logs/qemu-smp-fault.log,smp: the CPU with APIC id 2 did not come up within 1000 ms; going on without it)
	$(call require_line,$(B)/logs/qemu-smp-fault.log,smp: ignored the late check-in of the CPU with APIC id 2; it is parked)
	$(call require_line,$(B)/logs/qemu-smp-fault.log,smp: the CPU with APIC id 3 did not come up within 1000 ms; going on without it)
	$(call require_line,$(B)/logs/qemu-smp-fault.log,mm: struct pages initialized by 2 CPUs in 16 parts)
	$(call require_line,$(B)/logs/qemu-smp-fault.log,mm: 2 of the 3 CPUs started for the struct pages did not check in within 1000 ms)
	$(call require_line,$(B)/logs/qemu-smp-fault.log,mm: 1 CPU started for the struct pages did not park within 1000 ms: the 48 KiB of stacks stay reserved)
QEMU_STEPS += test-qemu-smp-fault
# many_cpus_step NAME,CPUS,MEM,CMDLINE: a q35 machine (qemu64) of CPUS CPUs running the suites of
# CMDLINE; every CPU must come up.
define many_cpus_step
$(B)/$(1)/os.iso: $(KERNEL) boot/grub.cfg.in boot/mkgrubcfg.sh boot/mkiso.sh | deps
	$(Q)boot/mkiso.sh $(KERNEL) '$(4)' $$@
.PHONY: test-qemu-$(1)
test-qemu-$(1): $(B)/$(1)/os.iso
	$(QEMU_RUN) --firmware bios --medium cdrom --mem $(3) --machine q35 --smp $(2) --cpu qemu64 \
		--image $$< --cmdline-note "$(4)" --log $(B)/logs/qemu-$(1).log
	$(call require_line,$(B)/logs/qemu-$(1).log,$(call smp_line,$(2)))
	$(if $(5),@tests/qemu/require-lines.sh $(B)/logs/qemu-$(1).log $(5))
QEMU_STEPS += test-qemu-$(1)
endef
# 128 CPUs (q35, the old model, xAPIC ids 0-127), past the 64 the kernel once stopped at: every
# per-CPU array is sized at boot. Only the suites that use every CPU, and the slab's (a slot per
# CPU and cache): under TCG on a 2-core host every cross-CPU hand-over waits for the other
# virtual CPU to get a host core, and the whole run would take far too long.
$(eval $(call many_cpus_step,smp128,128,512M,ktest=smp$(comma)smp_stress$(comma)slab$(comma)slab_misuse$(comma)slab_random))
# 65 CPUs: one past the old limit of 64, all of them run (nothing but the smp suite).
# All 65 CPUs start at once to initialize struct pages (memmap_init_cpus=65) through one copy of
# the trampoline (tests/trampoline/check.sh).
$(eval $(call many_cpus_step,smp65,65,256M,memmap_init_cpus=65 ktest=smp,'mm: struct pages initialized by 65 CPUs in 260 parts'))

# NUMA machines (QEMU -numa, kernel/numa_acpi.c): the boot must report each node's memory, CPUs
# and distances from the SRAT and SLIT QEMU builds, and the suites that use every CPU and the
# slab's pass, and mm/'s (numa_nodes) on the nodes mm/ built from them; "smp: Brought up" counts
# the nodes, and each node's MemTotal matches its RAM less what is reserved there
# (tests/qemu/check-numa-meminfo.sh). Two nodes of two CPUs; four nodes, one without memory and
# one without CPUs.
# $(call numa_step,NAME,MEM,CPUS,NODES,DISTANCES,NODE_LINES): NODE_LINES are the lines of the
# boot report from "NUMA: node 0" on, separated by |.
# The suites that walk every zone, run where zones belong to several nodes (memory_add is not:
# mm_add_memory() refuses with more than one node).
NUMA_ZONE_SUITES := compaction$(comma)contig_alloc$(comma)mm_watermark$(comma)mobility$(comma)show_mem$(comma)pcp_pageblock$(comma)pcp_gfp_table
NUMA_CMDLINE := ktest=smp$(comma)smp_stress$(comma)slab$(comma)slab_misuse$(comma)slab_random$(comma)slab_irq$(comma)numa_acpi$(comma)numa_nodes$(comma)$(NUMA_ZONE_SUITES)
define numa_step
$(B)/$(1)/os.iso: $(KERNEL) boot/grub.cfg.in boot/mkgrubcfg.sh boot/mkiso.sh | deps
	$(Q)boot/mkiso.sh $(KERNEL) '$(NUMA_CMDLINE)' $$@
.PHONY: test-qemu-$(1)
test-qemu-$(1): $(B)/$(1)/os.iso
	$(QEMU_RUN) --firmware bios --medium cdrom --mem $(2) --machine q35 --smp $(3) --cpu qemu64 \
		--numa '$(4)' --numa-dist '$(5)' --image $$< --cmdline-note "$(NUMA_CMDLINE)" \
		--log $(B)/logs/qemu-$(1).log
	$(call require_line,$(B)/logs/qemu-$(1).log,$(call smp_line,$(3),$(words $(4))))
	@tests/qemu/check-numa-meminfo.sh $(B)/logs/qemu-$(1).log
	@tr -d '\r' <$(B)/logs/qemu-$(1).log | grep -A20 -xF 'NUMA: $(words $(4)) nodes from the SRAT$(comma) distances from the SLIT' | \
		grep '^NUMA: [nd]' | tr '\n' '|' | grep -qxF "$$$$(echo '$(6)|' | sed 's/^ //; s/| /|/g')" || \
		{ echo "$(B)/logs/qemu-$(1).log: the NUMA lines are not \"$(6)\""; exit 1; }
QEMU_STEPS += test-qemu-$(1)
endef
$(eval $(call numa_step,numa2,512M,4,256M@0-1 256M@2-3,0:1:21,\
NUMA: node 0: 0x0-0xfffffff (255 MiB)$(comma) CPUs 0-1 (APIC ids 0-1)|\
NUMA: node 1: 0x10000000-0x1ffdefff (255 MiB)$(comma) CPUs 2-3 (APIC ids 2-3)|\
NUMA: distances from node 0: 10 21|NUMA: distances from node 1: 21 10))
$(eval $(call numa_step,numa4,384M,4,128M@0-1 0@2 128M@3 128M@,0:1:20 0:2:30 0:3:40 1:2:20 1:3:30 2:3:20,\
NUMA: node 0: 0x0-0x7ffffff (127 MiB)$(comma) CPUs 0-1 (APIC ids 0-1)|\
NUMA: node 1: no memory$(comma) CPUs 2 (APIC ids 2)|\
NUMA: node 2: 0x8000000-0xfffffff (128 MiB)$(comma) CPUs 3 (APIC ids 3)|\
NUMA: node 3: 0x10000000-0x17fdefff (127 MiB)$(comma) CPUs none|\
NUMA: distances from node 0: 10 20 30 40|NUMA: distances from node 1: 20 10 20 30|\
NUMA: distances from node 2: 30 20 10 20|NUMA: distances from node 3: 40 30 20 10))
TEST_STEPS += $(QEMU_STEPS)

# `make test` builds first (so a build error is one clear failure), then runs every step.
test: deps
	@$(MAKE) --no-print-directory CMDLINE= all $(HOST_KTEST)
	@tests/run-steps.sh $(TEST_STEPS)
