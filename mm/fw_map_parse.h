/*
 * Reading a firmware memory map from text (host only: the map replay tool, tests, the fuzzer).
 * Two line forms, as Linux prints them at boot:
 *
 *   BIOS-e820: [mem 0x0000000000100000-0x0000000007fdffff] usable          (END inclusive)
 *   efi: mem04: type=7, attr=0xf, range=[0x0000000000100000-0x0000000000800000) (7MB)  (END exclusive)
 *
 * Text before the form (a log timestamp) is skipped; blank lines, lines starting with '#' and
 * lines holding neither form are ignored. e820 types: usable, reserved, ACPI data, ACPI NVS,
 * unusable, persistent (type N), type N.
 */
#ifndef MM_FW_MAP_PARSE_H
#define MM_FW_MAP_PARSE_H

#include "mm/fw_map.h"

/*
 * Parses one line (len bytes, no NUL needed). Returns 1 when it added an entry, 0 when the line
 * holds no entry, or -EINVAL when a line of one of the two forms is malformed (reported with
 * lineno) or -ENOMEM when the map is full.
 */
int fw_map_parse_line(struct fw_map *map, const char *line, size_t len, unsigned int lineno);

/* Parses a whole text. Returns the number of entries added, or the first line's error. */
int fw_map_parse_text(struct fw_map *map, const char *text, size_t len);

#endif
