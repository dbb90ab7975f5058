# SPDX-License-Identifier: MIT
# Tests: every tests/*/build.mk adds its sources and its steps to TEST_STEPS; this file adds the
# host suites first and the QEMU matrix last, and defines `make test`.
TEST_STEPS := test-host
include $(wildcard tests/*/build.mk)

.PHONY: test-host
test-host: $(HOST_KTEST)
	$(HOST_KTEST)

# The QEMU matrix: every image boots and runs every self-test. Name, firmware, medium, memory, machine.
QEMU_RUN = tests/qemu/run.sh --accel $(ACCEL) --timeout $(TIMEOUT)
define qemu_step
.PHONY: test-qemu-$(1)
test-qemu-$(1): $(B)/os.iso
	$(QEMU_RUN) --firmware $(2) --medium $(3) --mem $(4) --machine $(5) --image $(B)/os.iso \
		--log $(B)/logs/qemu-$(1).log
QEMU_STEPS += test-qemu-$(1)
endef
QEMU_STEPS :=
$(eval $(call qemu_step,bios-cdrom,bios,cdrom,256M,pc))
$(eval $(call qemu_step,bios-usb,bios,usb,256M,pc))
$(eval $(call qemu_step,uefi-cdrom,uefi,cdrom,256M,q35))
$(eval $(call qemu_step,uefi-usb,uefi,usb,256M,q35))
# 6 MiB: no 2 MiB block fits, so the cases that need one must skip, saying why, not fail.
$(eval $(call qemu_step,bios-6m,bios,cdrom,6M,pc))
$(eval $(call qemu_step,bios-64m-pc,bios,cdrom,64M,pc))
$(eval $(call qemu_step,bios-64m-q35,bios,cdrom,64M,q35))
$(eval $(call qemu_step,bios-1g-pc,bios,cdrom,1G,pc))
$(eval $(call qemu_step,bios-1g-q35,bios,cdrom,1G,q35))
$(eval $(call qemu_step,bios-5g-pc,bios,cdrom,5G,pc))
$(eval $(call qemu_step,bios-5g-q35,bios,cdrom,5G,q35))
$(eval $(call qemu_step,uefi-5g-q35,uefi,cdrom,5G,q35))

# Four CPUs: the boot report must list the four the MADT names (kernel/acpi.c).
.PHONY: test-qemu-bios-smp4
test-qemu-bios-smp4: $(B)/os.iso
	$(QEMU_RUN) --firmware bios --medium cdrom --mem 256M --machine pc --smp 4 --image $(B)/os.iso \
		--log $(B)/logs/qemu-bios-smp4.log
	@grep -q 'ACPI: MADT lists 4 CPUs (APIC ids 0 1 2 3)' $(B)/logs/qemu-bios-smp4.log || \
		{ echo "test-qemu-bios-smp4: the log does not list 4 CPUs"; exit 1; }
QEMU_STEPS += test-qemu-bios-smp4
TEST_STEPS += $(QEMU_STEPS)

# `make test` builds first (so a build error is one clear failure), then runs every step.
test: deps
	@$(MAKE) --no-print-directory CMDLINE= all $(HOST_KTEST)
	@tests/run-steps.sh $(TEST_STEPS)
