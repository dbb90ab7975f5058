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
deps-picture-test:
	$(call install_missing,$(PICTURE_TEST_DEB_PKGS))

# make picture [MAP=file] [PICTURE_LOG=log]: build/picture/memory.svg. Without MAP, the log of the
# last `make run`, which must have booted with CMDLINE=mm_picture.
picture: $(REPLAY) | deps-picture
	@mkdir -p $(PICTURE_DIR)
	$(Q)if [ -n "$(MAP)" ]; then \
		$(REPLAY) --picture $(MAP) > $(PICTURE_DIR)/replay.log || exit 1; \
		log=$(PICTURE_DIR)/replay.log; title=$$(basename $(MAP)); \
	else \
		log=$(PICTURE_LOG); title="boot log $$(basename $(PICTURE_LOG))"; \
		test -f $$log || { echo "picture: no $$log: boot with make run CMDLINE=mm_picture, or give MAP="; exit 1; }; \
	fi; \
	/usr/bin/python3 tests/picture/memory_svg.py $$log $(PICTURE_DIR)/memory.svg --title "$$title" && \
	echo "picture: wrote $(PICTURE_DIR)/memory.svg"

# Maps of several sizes and shapes: a laptop (UEFI, 10 GiB), an old BIOS machine, a 128 GiB server
# and QEMU's smallest; the script also checks that a blank page and a picture without a zone fail.
PICTURE_TEST_MAPS := thinkpad-uefi-10g lenovo-g530-bios-2g synthetic-128g qemu-pc-128m
test-picture: $(REPLAY) | deps-picture-test
	@tests/picture/test.sh $(REPLAY) $(PICTURE_DIR)/test $(PICTURE_TEST_MAPS:%=tests/fixtures/memmaps/%.txt) | \
		tests/mm/sum-counts.sh
TEST_STEPS += test-picture
