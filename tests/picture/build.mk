# SPDX-License-Identifier: MIT
# tests/picture/: the picture of physical memory. `make picture` draws it as an SVG from the last
# boot log or, with MAP=, from a replay of that map; `make test-picture` renders pictures of
# fixture maps in headless Chromium and checks their pixels (tests/picture/test.sh).
PICTURE_DIR := $(B)/picture
PICTURE_DEB_PKGS := python3
PICTURE_TEST_DEB_PKGS := python3 chromium
PICTURE_LOG ?= $(B)/logs/run.log

.PHONY: deps-picture deps-picture-test picture test-picture
deps-picture:
	$(call install_missing,$(PICTURE_DEB_PKGS))
# Chromium without its recommendations (printing, desktop services), which a headless render
# does not use.
deps-picture-test:
	$(call install_missing,$(PICTURE_TEST_DEB_PKGS),--no-install-recommends)

# make picture [MAP=file] [PICTURE_LOG=log]: build/picture/memory.svg. Without MAP, the log of the
# last `make run`, which must have booted with CMDLINE=mm_picture.
picture: $(REPLAY) | deps-picture
	@mkdir -p $(PICTURE_DIR)
	$(Q)if [ -n "$(MAP)" ]; then \
		$(REPLAY) --picture $(MAP) > $(PICTURE_DIR)/replay.log || exit 1; \
		log=$(PICTURE_DIR)/replay.log; title=$$(basename $(MAP) .txt); \
	else \
		log=$(PICTURE_LOG); title="boot log $$(basename $(PICTURE_LOG))"; \
		test -f $$log || { echo "picture: no $$log: boot with make run CMDLINE=mm_picture, or give MAP="; exit 1; }; \
	fi; \
	/usr/bin/python3 tests/picture/memory_svg.py $$log $(PICTURE_DIR)/memory.svg --title "$$title" && \
	echo "picture: wrote $(PICTURE_DIR)/memory.svg"

# Maps of several sizes and shapes: a laptop (UEFI, 10 GiB), an old BIOS machine, a 128 GiB server,
# QEMU's smallest and QEMU's four NUMA nodes (one without memory: a band per node); and the log of a real boot of 64 MiB under QEMU with mm_picture (one short
# suite, the picture lines are what matters). The script also checks that a blank page and a
# picture without a zone fail.
PICTURE_TEST_MAPS := thinkpad-uefi-10g lenovo-g530-bios-2g synthetic-128g qemu-pc-128m qemu-q35-numa4
PICTURE_BOOT_DIR := $(B)/picture-boot
PICTURE_BOOT_CMDLINE := mm_picture ktest=printk
$(PICTURE_BOOT_DIR)/os.iso: $(KERNEL) boot/grub.cfg.in boot/mkgrubcfg.sh boot/mkiso.sh | deps
	$(Q)boot/mkiso.sh $(KERNEL) '$(PICTURE_BOOT_CMDLINE)' $@
test-picture: $(REPLAY) $(PICTURE_BOOT_DIR)/os.iso | deps-picture-test
	@mkdir -p $(PICTURE_DIR)
	@{ $(QEMU_RUN) --firmware bios --medium cdrom --mem 64M --machine pc --smp 1 --image $(PICTURE_BOOT_DIR)/os.iso \
		--cmdline-note "$(PICTURE_BOOT_CMDLINE)" --log $(B)/logs/qemu-picture.log >$(PICTURE_DIR)/qemu.out 2>&1 || \
		{ echo "FAIL the boot with mm_picture (see $(PICTURE_DIR)/qemu.out)"; echo "0 passed, 1 failed"; }; \
	   tail -n 1 $(PICTURE_DIR)/qemu.out; \
	   tests/picture/test.sh $(REPLAY) $(PICTURE_DIR)/test $(PICTURE_TEST_MAPS:%=tests/fixtures/memmaps/%.txt) \
		$(B)/logs/qemu-picture.log; } | tests/mm/sum-counts.sh
TEST_STEPS += test-picture
