# SPDX-License-Identifier: MIT
# kernel/ksyms/: the kernel's symbol table. The top Makefile links the kernel twice: first with
# an empty table (KSYMS_EMPTY_OBJ), then with the table of the first link's code symbols
# (KSYMS_TABLE_OBJ), and checks that the code did not move between the two.
KERNEL_SRCS += kernel/ksyms/ksyms.c

KSYMS_EMPTY_C   := $(KOBJ)/ksyms_empty.c
KSYMS_TABLE_C   := $(KOBJ)/ksyms_table.c
KSYMS_EMPTY_OBJ := $(KSYMS_EMPTY_C:.c=.o)
KSYMS_TABLE_OBJ := $(KSYMS_TABLE_C:.c=.o)

$(KSYMS_EMPTY_C): kernel/ksyms/mktable.sh
	@mkdir -p $(@D)
	$(Q)kernel/ksyms/mktable.sh --empty >$@

$(KSYMS_TABLE_C): $(KDIR)/kernel-$(COMPOUND_FLAGS).nosyms.elf kernel/ksyms/mktable.sh
	@echo "  KSYMS   $@"
	$(Q)kernel/ksyms/mktable.sh $< >$@

$(KSYMS_EMPTY_OBJ) $(KSYMS_TABLE_OBJ): %.o: %.c
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@
