/* SPDX-License-Identifier: MIT */
/*
 * acpi_numa_parse(): the NUMA nodes the SRAT describes and the distances the SLIT gives them.
 * Layouts from the ACPI specification, section 5.2.16 (SRAT: processor local APIC affinity,
 * memory affinity, processor local x2APIC affinity) and 5.2.17 (SLIT). Every length, count and
 * id is checked before it is used; see kernel/numa_acpi.h for what each problem does.
 */
#include "kernel/numa_acpi.h"

#include "kernel/acpi_bytes.h"
#include "lib/printk.h"
#include "lib/string.h"

#define SRAT_ENTRIES    48u  /* header (36), table revision (4), reserved (8) */
#define SLIT_MATRIX     44u  /* header (36), number of localities (u64) */
#define SRAT_LAPIC      0    /* processor local APIC affinity: 16 bytes */
#define SRAT_MEMORY     1    /* memory affinity: 40 bytes */
#define SRAT_X2APIC     2    /* processor local x2APIC affinity: 24 bytes */
#define SRAT_ENABLED    (1u << 0)
#define SRAT_HOTPLUG    (1u << 1)
#define NO_NODE         0xffu

/* The state of one parse: the table, the inputs and the layout being built. */
struct srat_walk {
	const uint8_t *t;
	uint32_t len;
	const struct numa_span *ram;
	uint32_t nr_ram;
	struct numa_layout *out;
	numa_say_fn *say;
};

static int say_nothing(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}

/* The entry's proximity domain and, for a processor entry, its APIC id and flags. */
static uint32_t entry_domain(const uint8_t *e)
{
	if (e[0] == SRAT_LAPIC)
		return e[2] | (uint32_t)e[9] << 8 | (uint32_t)e[10] << 16 | (uint32_t)e[11] << 24;
	return acpi_get32(e + (e[0] == SRAT_MEMORY ? 2 : 4));
}

static uint32_t entry_flags(const uint8_t *e)
{
	return acpi_get32(e + (e[0] == SRAT_LAPIC ? 4 : e[0] == SRAT_MEMORY ? 28 : 12));
}

static uint32_t entry_apic_id(const uint8_t *e)
{
	return e[0] == SRAT_LAPIC ? e[3] : acpi_get32(e + 8);
}

/* The length an entry of this type must have at least; 2 (just the type and length) for others. */
static uint32_t entry_min_len(uint8_t type)
{
	return type == SRAT_LAPIC ? 16 : type == SRAT_MEMORY ? 40 : type == SRAT_X2APIC ? 24 : 2;
}

/* Checks every entry's length against the table and its type; 0, or -1 after parse_fail(). */
static int srat_check_entries(const uint8_t *t, uint32_t len)
{
	if (len < SRAT_ENTRIES)
		return parse_fail("numa: SRAT has length %#x, less than its 48-byte header", len);
	for (uint32_t off = SRAT_ENTRIES; off < len; off += t[off + 1]) {
		if (len - off < 2 || t[off + 1] > len - off)
			return parse_fail("numa: SRAT entry at offset %#x runs past the table end %#x", off, len);
		if (t[off + 1] < entry_min_len(t[off]))
			return parse_fail("numa: SRAT entry at offset %#x of type %u has length %u, less than %u",
					  off, t[off], t[off + 1], entry_min_len(t[off]));
	}
	return 0;
}

/* Adds domain d to the ascending set of domains; -1 after parse_fail() when the set is full. */
static int add_domain(struct numa_layout *l, uint32_t d)
{
	uint32_t i = 0;

	while (i < l->nr_nodes && l->domain[i] < d)
		i++;
	if (i < l->nr_nodes && l->domain[i] == d)
		return 0;
	if (l->nr_nodes == NUMA_MAX_NODES)
		return parse_fail("numa: SRAT names more than %u proximity domains", NUMA_MAX_NODES);
	memmove(&l->domain[i + 1], &l->domain[i], (l->nr_nodes - i) * sizeof(l->domain[0]));
	l->domain[i] = d;
	l->nr_nodes++;
	return 0;
}

/* The node number of domain d, which add_domain() recorded. */
static uint32_t node_of_domain(const struct numa_layout *l, uint32_t d)
{
	uint32_t i = 0;

	while (i < l->nr_nodes && l->domain[i] != d)
		i++;
	return i;
}

/* Clips [*start, *end) to the span of the RAM it overlaps; false when it overlaps none. */
static bool clip_to_ram(const struct srat_walk *w, uint64_t *start, uint64_t *end)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (uint32_t i = 0; i < w->nr_ram; i++) {
		uint64_t a = w->ram[i].start > *start ? w->ram[i].start : *start;
		uint64_t b = w->ram[i].end < *end ? w->ram[i].end : *end;
		if (a < b) {
			lo = a < lo ? a : lo;
			hi = b > hi ? b : hi;
		}
	}
	if (lo >= hi)
		return false;
	*start = lo, *end = hi;
	return true;
}

/* Whether the memory entry at off is usable: enabled, sound and holding RAM; says why not. */
static bool memory_entry_usable(const struct srat_walk *w, uint32_t off, uint64_t *start, uint64_t *end)
{
	const uint8_t *e = w->t + off;
	uint64_t base = acpi_get64(e + 8), size = acpi_get64(e + 16);

	if (!(entry_flags(e) & SRAT_ENABLED) || size == 0)
		return false;
	if (size > UINT64_MAX - base) {
		w->say("numa: SRAT memory range at offset %#x (0x%llx, length 0x%llx) wraps around: dropped\n",
		       off, (unsigned long long)base, (unsigned long long)size);
		return false;
	}
	*start = base, *end = base + size;
	if (clip_to_ram(w, start, end))
		return true;
	w->say("numa: SRAT memory range at offset %#x (0x%llx-0x%llx%s) holds no RAM: dropped\n", off,
	       (unsigned long long)base, (unsigned long long)(base + size - 1),
	       entry_flags(e) & SRAT_HOTPLUG ? ", hot-pluggable" : "");
	return false;
}

/* Records the domains of the enabled entries and the usable memory ranges (nodes numbered later). */
static int srat_collect(struct srat_walk *w)
{
	struct numa_layout *l = w->out;
	uint64_t start = 0, end = 0;

	for (uint32_t off = SRAT_ENTRIES; off < w->len; off += w->t[off + 1]) {
		const uint8_t *e = w->t + off;
		if (e[0] > SRAT_X2APIC || !(entry_flags(e) & SRAT_ENABLED))
			continue;
		if (e[0] == SRAT_MEMORY && !memory_entry_usable(w, off, &start, &end))
			continue;
		if (add_domain(l, entry_domain(e)) < 0)
			return -1;
		if (e[0] != SRAT_MEMORY)
			continue;
		if (l->nr_ranges == NUMA_MAX_RANGES)
			return parse_fail("numa: SRAT has more than %u usable memory ranges", NUMA_MAX_RANGES);
		l->ranges[l->nr_ranges++] = (struct numa_range){ start, end, entry_domain(e) };
	}
	if (!l->nr_ranges)
		return parse_fail("numa: SRAT has no enabled memory range that holds RAM");
	return 0;
}

/* Sorts the ranges by address, turns their domains into nodes, and refuses two nodes overlapping. */
static int sort_ranges(struct numa_layout *l)
{
	for (uint32_t i = 0; i < l->nr_ranges; i++)
		l->ranges[i].node = node_of_domain(l, l->ranges[i].node);
	for (uint32_t i = 1; i < l->nr_ranges; i++) {
		struct numa_range r = l->ranges[i];
		uint32_t j = i;
		for (; j > 0 && l->ranges[j - 1].start > r.start; j--)
			l->ranges[j] = l->ranges[j - 1];
		l->ranges[j] = r;
	}
	uint32_t reach = 0;  /* the range reaching furthest so far */
	for (uint32_t i = 1; i < l->nr_ranges; i++) {
		struct numa_range *a = &l->ranges[reach], *b = &l->ranges[i];
		if (b->start < a->end && a->node != b->node)
			return parse_fail("numa: SRAT memory of node %u (0x%llx-0x%llx) overlaps node %u's (0x%llx-0x%llx)",
					  a->node, (unsigned long long)a->start, (unsigned long long)(a->end - 1), b->node,
					  (unsigned long long)b->start, (unsigned long long)(b->end - 1));
		if (b->end > a->end)
			reach = i;
	}
	return 0;
}

/* Merges ranges of one node that overlap or touch, so that the ranges are disjoint. */
static void merge_ranges(struct numa_layout *l)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < l->nr_ranges; i++) {
		struct numa_range *last = n ? &l->ranges[n - 1] : NULL;
		if (last && last->node == l->ranges[i].node && l->ranges[i].start <= last->end) {
			if (l->ranges[i].end > last->end)
				last->end = l->ranges[i].end;
			continue;
		}
		l->ranges[n++] = l->ranges[i];
	}
	l->nr_ranges = n;
}

/* Puts each MADT CPU that an enabled processor entry names into that entry's node. */
static void srat_place_cpus(const struct srat_walk *w)
{
	struct numa_layout *l = w->out;

	for (uint32_t off = SRAT_ENTRIES; off < w->len; off += w->t[off + 1]) {
		const uint8_t *e = w->t + off;
		if ((e[0] != SRAT_LAPIC && e[0] != SRAT_X2APIC) || !(entry_flags(e) & SRAT_ENABLED))
			continue;
		uint32_t node = node_of_domain(l, entry_domain(e));
		for (uint32_t c = 0; c < l->nr_cpus; c++) {
			if (l->cpu_apic[c] != entry_apic_id(e))
				continue;
			if (l->cpu_node[c] == NO_NODE)
				l->cpu_node[c] = (uint8_t)node;
			else if (l->cpu_node[c] != node)
				w->say("numa: SRAT entry at offset %#x puts APIC id %u in node %u too: kept in node %u\n",
				       off, l->cpu_apic[c], node, l->cpu_node[c]);
		}
	}
}

/* A CPU the SRAT does not place goes to node 0, with a message. */
static void place_leftover_cpus(struct numa_layout *l, numa_say_fn *say)
{
	for (uint32_t c = 0; c < l->nr_cpus; c++) {
		if (l->cpu_node[c] != NO_NODE)
			continue;
		if (l->from_srat)
			say("numa: the SRAT names no node for the CPU with APIC id %u: it joins node 0\n",
			    l->cpu_apic[c]);
		l->cpu_node[c] = 0;
	}
}

static void default_distances(struct numa_layout *l)
{
	for (uint32_t i = 0; i < NUMA_MAX_NODES; i++)
		for (uint32_t j = 0; j < NUMA_MAX_NODES; j++)
			l->distance[i][j] = i == j ? NUMA_LOCAL_DISTANCE : NUMA_REMOTE_DISTANCE;
}

/* Checks the SLIT against the nodes found; 0, or -1 after parse_fail(). */
static int slit_check(const struct numa_layout *l, const uint8_t *s, uint32_t len, uint64_t *n)
{
	if (len < SLIT_MATRIX)
		return parse_fail("numa: SLIT has length %#x, less than 44", len);
	*n = acpi_get64(s + 36);
	if (*n > 0xffff || SLIT_MATRIX + *n * *n > len)
		return parse_fail("numa: SLIT of length %#x cannot hold %llu x %llu distances", len,
				  (unsigned long long)*n, (unsigned long long)*n);
	for (uint32_t i = 0; i < l->nr_nodes; i++) {
		if (l->domain[i] >= *n)
			return parse_fail("numa: SLIT has %llu localities; node %u is proximity domain %u",
					  (unsigned long long)*n, i, l->domain[i]);
	}
	for (uint32_t i = 0; i < l->nr_nodes; i++) {
		for (uint32_t j = 0; j < l->nr_nodes; j++) {
			uint8_t d = s[SLIT_MATRIX + l->domain[i] * *n + l->domain[j]];
			if (i == j && d != NUMA_LOCAL_DISTANCE)
				return parse_fail("numa: SLIT distance of node %u to itself is %u, not 10", i, d);
			if (i != j && d <= NUMA_LOCAL_DISTANCE)
				return parse_fail("numa: SLIT distance from node %u to node %u is %u, not above 10",
						  i, j, d);
		}
	}
	return 0;
}

/* Fills the distances from the SLIT, or 10 and 20 when it is missing or malformed. */
static void take_distances(struct numa_layout *l, const uint8_t *s, uint32_t len, numa_say_fn *say)
{
	uint64_t n = 0;

	default_distances(l);
	if (!s || l->nr_nodes < 2)
		return;
	if (slit_check(l, s, len, &n) < 0) {
		say("%s: distances 10 and 20 used instead\n", parse_fail_message());
		return;
	}
	for (uint32_t i = 0; i < l->nr_nodes; i++)
		for (uint32_t j = 0; j < l->nr_nodes; j++)
			l->distance[i][j] = s[SLIT_MATRIX + l->domain[i] * n + l->domain[j]];
	l->from_slit = true;
}

/* The SRAT's nodes and ranges; 0, or -1 after parse_fail(). */
static int srat_parse(struct srat_walk *w)
{
	if (!w->t)
		return parse_fail("numa: no SRAT");
	if (srat_check_entries(w->t, w->len) < 0 || srat_collect(w) < 0 || sort_ranges(w->out) < 0)
		return -1;
	merge_ranges(w->out);
	srat_place_cpus(w);
	return 0;
}

/* Starts the layout: the MADT's CPUs in no node yet, nothing else. */
static void layout_start(struct numa_layout *l, const struct acpi_cpus *cpus)
{
	memset(l, 0, sizeof(*l));
	l->nr_cpus = cpus ? cpus->count : 0;
	for (uint32_t c = 0; c < l->nr_cpus; c++) {
		l->cpu_apic[c] = cpus->apic_ids[c];
		l->cpu_node[c] = NO_NODE;
	}
}

int acpi_numa_parse(const void *srat, uint32_t srat_len, const void *slit, uint32_t slit_len,
		    const struct numa_span *ram, uint32_t nr_ram, const struct acpi_cpus *cpus,
		    struct numa_layout *out, numa_say_fn *say)
{
	struct srat_walk w = { srat, srat_len, ram, nr_ram, out, say ? say : say_nothing };
	int r = 0;

	layout_start(out, cpus);
	if (srat_parse(&w) < 0) {
		if (srat)
			w.say("%s: one node\n", parse_fail_message());
		layout_start(out, cpus);
		out->nr_nodes = 1;
		r = -1;
	} else {
		out->from_srat = true;
	}
	place_leftover_cpus(out, w.say);
	take_distances(out, slit, slit_len, w.say);
	return r;
}

uint32_t numa_node_of_addr(const struct numa_layout *l, uint64_t addr)
{
	uint32_t below = l->nr_ranges;

	for (uint32_t i = 0; i < l->nr_ranges && l->ranges[i].start <= addr; i++)
		below = i;
	if (below < l->nr_ranges)
		return l->ranges[below].node;  /* in it, or in the gap above it */
	return l->nr_ranges ? l->ranges[0].node : 0;
}

uint64_t numa_node_ram(const struct numa_layout *l, uint32_t nid, const struct numa_span *ram, uint32_t nr_ram,
			 uint64_t *lo, uint64_t *hi)
{
	uint64_t bytes = 0;

	*lo = UINT64_MAX, *hi = 0;
	for (uint32_t i = 0; i < nr_ram; i++) {
		for (uint64_t a = ram[i].start; a < ram[i].end;) {
			uint64_t b = ram[i].end;
			for (uint32_t r = 0; r < l->nr_ranges; r++)  /* the node can change only at a range's start */
				if (l->ranges[r].start > a && l->ranges[r].start < b)
					b = l->ranges[r].start;
			if (numa_node_of_addr(l, a) == nid) {
				bytes += b - a;
				*lo = a < *lo ? a : *lo;
				*hi = b - 1 > *hi ? b - 1 : *hi;
			}
			a = b;
		}
	}
	return bytes;
}

/* Appends ids[0 .. nr) in their order, runs of consecutive ids as "a-b", with commas between; "none" for no id. */
static size_t put_runs(char *buf, size_t len, size_t n, const uint32_t *ids, uint32_t nr)
{
	for (uint32_t i = 0, j; i < nr; i = j + 1) {
		for (j = i; j + 1 < nr && ids[j + 1] == ids[j] + 1; j++)
			;
		n = j == i ? snprintf_append(buf, len, n, "%s%u", i ? "," : "", ids[i])
			   : snprintf_append(buf, len, n, "%s%u-%u", i ? "," : "", ids[i], ids[j]);
	}
	return nr ? n : snprintf_append(buf, len, n, "none");
}

/* Node nid's CPUs' APIC ids, in MADT order, into ids; returns how many. */
static uint32_t node_apic_ids(const struct numa_layout *l, uint32_t nid, uint32_t *ids)
{
	uint32_t nr = 0;

	for (uint32_t c = 0; c < l->nr_cpus; c++)
		if (l->cpu_node[c] == nid)
			ids[nr++] = l->cpu_apic[c];
	return nr;
}

/*
 * Node nid's CPUs' numbers, ascending, into ids; returns how many. The numbers are the kernel's:
 * the boot CPU (APIC id boot_apic) is CPU 0, the others 1, 2 ... in MADT order, as
 * numa_mm_layout() and smp_init() number them when every CPU comes up.
 */
static uint32_t node_cpu_numbers(const struct numa_layout *l, uint32_t nid, uint32_t boot_apic, uint32_t *ids)
{
	uint32_t nr = 0, next = 1;
	bool boot_here = false;

	for (uint32_t c = 0; c < l->nr_cpus; c++) {
		if (l->cpu_apic[c] == boot_apic) {
			boot_here = l->cpu_node[c] == nid;
			continue;
		}
		if (l->cpu_node[c] == nid)
			ids[nr++] = next;
		next++;
	}
	if (boot_here) {
		memmove(ids + 1, ids, nr * sizeof(ids[0]));
		ids[0] = 0;
		nr++;
	}
	return nr;
}

int numa_format_node(char *buf, size_t len, const struct numa_layout *l, uint32_t nid, uint32_t boot_apic,
		     const struct numa_span *ram, uint32_t nr_ram)
{
	static uint32_t ids[ACPI_MAX_CPUS]; /* off the stack; the lines are printed once, at boot */
	uint64_t lo, hi, bytes = numa_node_ram(l, nid, ram, nr_ram, &lo, &hi);
	size_t n = snprintf_append(buf, len, 0, "NUMA: node %u: ", nid);
	uint32_t nr;

	if (bytes)
		n = snprintf_append(buf, len, n, "0x%llx-0x%llx (%llu MiB)", (unsigned long long)lo,
				    (unsigned long long)hi, (unsigned long long)(bytes >> 20));
	else
		n = snprintf_append(buf, len, n, "no memory");
	n = snprintf_append(buf, len, n, ", CPUs ");
	nr = node_cpu_numbers(l, nid, boot_apic, ids);
	n = put_runs(buf, len, n, ids, nr);
	if (!nr)
		return (int)n;
	n = snprintf_append(buf, len, n, " (APIC ids ");
	n = put_runs(buf, len, n, ids, node_apic_ids(l, nid, ids));
	return (int)snprintf_append(buf, len, n, ")");
}

int numa_format_distances(char *buf, size_t len, const struct numa_layout *l, uint32_t nid)
{
	size_t n = snprintf_append(buf, len, 0, "NUMA: distances from node %u:", nid);

	for (uint32_t j = 0; j < l->nr_nodes && nid < NUMA_MAX_NODES; j++)
		n = snprintf_append(buf, len, n, " %u", l->distance[nid][j]);
	return (int)n;
}
