/* SPDX-License-Identifier: MIT */
/*
 * vmalloc, vmap and kvmalloc (mm/vmalloc.h): areas of a virtual range, each a page array mapped
 * through the environment's hooks (mm/arch.h), with a guard page after it; vmalloc()'s pages are
 * movable by remapping (mm/migrate.h).
 *
 * The tree. Areas are nodes of a treap (a binary search tree by address that is also a heap by a
 * random priority, so its depth stays O(log n) whatever the order of the addresses). Each node
 * holds gap, the free bytes between the end of the area below it (guard page included) and its
 * start, and max_gap, the largest gap in its subtree; a sentinel node at the range's end holds
 * the gap above the last area. So the lowest gap that fits is found by going left whenever the
 * left subtree has one (first fit, O(log n)), and an insertion or removal changes the gap of
 * one other node: the next one up, the leftmost of what lies above it. Both are split and merge
 * of treaps (recursive, as deep as the tree).
 *
 * A page of an area under migration is marked in its slot of the page array, in the low bits of
 * the pointer (struct page is 32 bytes, so they are free): ISOLATED from isolate_page() until
 * migrate_page() or putback_page(), UNMAPPED while a migration marker stands in its mapping.
 */
#include "mm/vmalloc.h"

#include "mm/debug.h"
#include "mm/lock_check.h"
#include "mm/memmap.h"
#include "mm/migrate.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"

#define SLOT_ISOLATED 0x1ul
#define SLOT_UNMAPPED 0x2ul
#define SLOT_TAGS     (SLOT_ISOLATED | SLOT_UNMAPPED)
_Static_assert(_Alignof(struct page) > SLOT_TAGS, "a struct page pointer has its low bits free");

enum area_kind { AREA_VMALLOC, AREA_VMAP, AREA_SENTINEL };
enum area_state {
	AREA_BUILDING, /* pages being allocated and mapped: no migration, no lookup */
	AREA_LIVE,     /* handed out */
	AREA_FREEING,  /* vfree() or vunmap() has begun: no new migration */
};

struct vm_area {
	uintptr_t addr;           /* the first page; the guard page follows the last */
	unsigned long nr_pages;   /* mapped pages, the guard page not counted */
	uintptr_t gap;            /* free bytes between the area below (its guard page) and addr */
	uintptr_t max_gap;        /* the largest gap of this subtree */
	unsigned long prio;       /* the treap's heap order: a parent's is at least its children's */
	struct vm_area *left, *right;
	enum area_kind kind;
	enum area_state state;
	unsigned long nr_isolated; /* pages a migration holds (SLOT_ISOLATED) */
	unsigned long pages[];     /* struct page pointers, SLOT_* tags in the low bits */
};

static DEFINE_MM_SPINLOCK(vmalloc_lock, "vmalloc_lock");
static struct vm_area *root;          /* NULL until the first use after vmalloc_init() */
static struct vm_area sentinel = { .kind = AREA_SENTINEL };
static uintptr_t range_start, range_end;
static unsigned long nr_vmalloc_pages;
static unsigned long nr_marker_faults;
static uint64_t prio_state = 0x9e3779b97f4a7c15ull;

static const struct movable_operations vmalloc_movable_ops;

/* ---- the treap ---------------------------------------------------------------------------- */

static uintptr_t area_end(const struct vm_area *a) { return a->addr + (a->nr_pages + 1) * PAGE_SIZE; }
static uintptr_t max_gap_of(const struct vm_area *a) { return a ? a->max_gap : 0; }
static struct page *slot_page(unsigned long slot) { return (struct page *)(slot & ~SLOT_TAGS); }

/* A new priority (xorshift64): the same sequence every boot, so a run's tree repeats. Lock held. */
static unsigned long next_prio(void)
{
	prio_state ^= prio_state << 13;
	prio_state ^= prio_state >> 7;
	prio_state ^= prio_state << 17;
	return (unsigned long)prio_state;
}

static void update(struct vm_area *a)
{
	a->max_gap = MAX(a->gap, MAX(max_gap_of(a->left), max_gap_of(a->right)));
}

/* Splits t into the areas below key (*lo) and those at key or above (*hi). */
static void split(struct vm_area *t, uintptr_t key, struct vm_area **lo, struct vm_area **hi)
{
	if (!t) {
		*lo = *hi = NULL;
		return;
	}
	if (t->addr < key) {
		split(t->right, key, &t->right, hi);
		*lo = t;
	} else {
		split(t->left, key, lo, &t->left);
		*hi = t;
	}
	update(t);
}

/* Joins two treaps, every area of lo below every area of hi. */
static struct vm_area *merge(struct vm_area *lo, struct vm_area *hi)
{
	if (!lo || !hi)
		return lo ? lo : hi;
	if (lo->prio > hi->prio) {
		lo->right = merge(lo->right, hi);
		update(lo);
		return lo;
	}
	hi->left = merge(lo, hi->left);
	update(hi);
	return hi;
}

static struct vm_area *leftmost(struct vm_area *t)
{
	while (t->left)
		t = t->left;
	return t;
}

/* Sets the gap of t's lowest area and mends max_gap on the way back up. */
static void set_lowest_gap(struct vm_area *t, uintptr_t gap)
{
	if (t->left)
		set_lowest_gap(t->left, gap);
	else
		t->gap = gap;
	update(t);
}

/* The lowest area whose gap holds need bytes; NULL if none does. */
static struct vm_area *first_fit(struct vm_area *t, uintptr_t need)
{
	if (max_gap_of(t) < need)
		return NULL;
	for (;;) {
		if (max_gap_of(t->left) >= need)
			t = t->left;
		else if (t->gap >= need)
			return t;
		else
			t = t->right;
	}
}

/* The area (not the sentinel) whose pages or guard page hold addr; NULL if none. Lock held. */
static struct vm_area *area_find(uintptr_t addr)
{
	struct vm_area *t = root, *below = NULL;

	while (t) {
		if (addr < t->addr) {
			t = t->left;
		} else {
			below = t;
			t = t->right;
		}
	}
	return below && below->kind != AREA_SENTINEL && addr < area_end(below) ? below : NULL;
}

/* The tree of an empty range: the sentinel alone, its gap the whole range. Lock held. */
static void tree_reset(void)
{
	sentinel = (struct vm_area){ .addr = range_end, .gap = range_end - range_start, .kind = AREA_SENTINEL };
	update(&sentinel);
	root = range_end > range_start ? &sentinel : NULL;
}

/*
 * Gives a its place: the lowest gap that holds its pages and its guard page. Returns false when
 * no gap does. Lock held.
 */
static bool area_insert(struct vm_area *a)
{
	uintptr_t need = (a->nr_pages + 1) * PAGE_SIZE;
	struct vm_area *above = first_fit(root, need), *lo, *hi;

	if (!above)
		return false;
	a->addr = above->addr - above->gap;
	a->gap = 0;
	a->prio = next_prio();
	a->left = a->right = NULL;
	update(a);
	split(root, a->addr, &lo, &hi); /* above is hi's lowest area */
	set_lowest_gap(hi, above->gap - need);
	root = merge(merge(lo, a), hi);
	return true;
}

/* Takes a out of the tree; the area above it gets its room. Lock held. */
static void area_remove(struct vm_area *a)
{
	struct vm_area *lo, *mid, *hi;

	split(root, a->addr, &lo, &mid);
	split(mid, a->addr + 1, &mid, &hi); /* mid is a alone */
	set_lowest_gap(hi, leftmost(hi)->gap + a->gap + (area_end(a) - a->addr));
	root = merge(lo, hi);
}

/* ---- areas -------------------------------------------------------------------------------- */

static unsigned long lock_areas(void)
{
	unsigned long flags = arch_irq_save();

	arch_spin_lock(&vmalloc_lock);
	if (!root) /* the first use since vmalloc_init() */
		tree_reset();
	return flags;
}

static void unlock_areas(unsigned long flags)
{
	arch_spin_unlock(&vmalloc_lock);
	arch_irq_restore(flags);
}

static uintptr_t page_va(const struct vm_area *a, unsigned long i) { return a->addr + i * PAGE_SIZE; }

/*
 * A new area of nr_pages pages (descriptor and page array from kmalloc), placed in the tree in
 * state AREA_BUILDING; NULL (said why, unless quiet) when there is no room or no memory.
 */
static struct vm_area *area_new(unsigned long nr_pages, enum area_kind kind, const char *who, bool quiet)
{
	size_t bytes = sizeof(struct vm_area) + nr_pages * sizeof(unsigned long);
	struct vm_area *a = nr_pages <= (KMALLOC_MAX_SIZE - sizeof(*a)) / sizeof(unsigned long)
				    ? kzalloc(bytes, GFP_KERNEL | __GFP_NOWARN) : NULL;
	unsigned long flags;
	bool placed;

	if (!a) {
		if (!quiet)
			printk("%s: no memory for the page array of %lu pages\n", who, nr_pages);
		return NULL;
	}
	a->nr_pages = nr_pages;
	a->kind = kind;
	a->state = AREA_BUILDING;
	flags = lock_areas();
	placed = root && area_insert(a);
	unlock_areas(flags);
	if (!placed) {
		if (!quiet)
			printk("%s: no room for %lu pages in the vmalloc range [%#lx, %#lx)\n", who, nr_pages,
			       (unsigned long)range_start, (unsigned long)range_end);
		kfree(a);
		return NULL;
	}
	return a;
}

/* Gives back a's place and descriptor; its pages are unmapped already. */
static void area_delete(struct vm_area *a)
{
	unsigned long flags = lock_areas();

	area_remove(a);
	unlock_areas(flags);
	kfree(a);
}

/* Makes a area handed out: from here its pages may be isolated for migration. */
static void area_publish(struct vm_area *a)
{
	unsigned long flags = lock_areas();

	a->state = AREA_LIVE;
	unlock_areas(flags);
}

/* Why a, the area of addr, may not be freed as kind at addr ("" with no more to say); NULL: it may. */
static const char *free_refusal(const struct vm_area *a, uintptr_t addr, enum area_kind kind)
{
	if (!a || a->addr != addr)
		return "";
	if (a->kind != kind)
		return kind == AREA_VMAP ? " (vmalloc()'d: vfree() it)" : " (vmap()'d: vunmap() it)";
	if (a->state != AREA_LIVE)
		return a->state == AREA_FREEING ? " (being freed already)" : " (not handed out yet)";
	return NULL;
}

/*
 * Finds the area that starts at addr, of kind, live, and marks it AREA_FREEING; then waits (the
 * lock dropped) until no migration holds a page of it. NULL, said why, when addr is not such an
 * area's start.
 */
static struct vm_area *area_take_for_free(const void *addr, enum area_kind kind, const char *who)
{
	unsigned long flags = lock_areas();
	struct vm_area *a = area_find((uintptr_t)addr);

	const char *why = free_refusal(a, (uintptr_t)addr, kind);

	if (why) {
		unlock_areas(flags);
		printk("%s: %p is not the start of a %s area%s\n", who, addr, kind == AREA_VMAP ? "vmap()" : "vmalloc()",
		       why);
		return NULL;
	}
	a->state = AREA_FREEING;
	while (a->nr_isolated) { /* a migration ends in bounded time: let it */
		unlock_areas(flags);
		flags = lock_areas();
	}
	for (unsigned long i = 0; kind == AREA_VMALLOC && i < a->nr_pages; i++)
		clear_page_movable(slot_page(a->pages[i])); /* under the lock, as mm/migrate.h asks */
	unlock_areas(flags);
	return a;
}

/* ---- vmalloc ------------------------------------------------------------------------------ */

/*
 * Drops the first n pages of a vmalloc() area (unmapped, no longer movable) and their count:
 * put_page(), not __free_pages(), because a migration that looked at a page a moment before may
 * still hold a reference; the last of the two frees it (mm/migrate.h).
 */
static void free_area_pages(struct vm_area *a, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		put_page(slot_page(a->pages[i]));
		__atomic_fetch_sub(&nr_vmalloc_pages, 1, __ATOMIC_RELAXED);
	}
}

/*
 * Allocates and maps the pages of a new area, each movable from the moment it is mapped (a
 * migration still waits for the area to be live). Returns how many it mapped: all, or fewer when
 * memory ran out.
 */
static unsigned long fill_area(struct vm_area *a, gfp_t gfp)
{
	unsigned long i;

	for (i = 0; i < a->nr_pages; i++) {
		struct page *page = alloc_pages(GFP_HIGHUSER_MOVABLE | gfp, 0);

		if (!page)
			break;
		if (arch_vmalloc_map_page(page_va(a, i), PFN_PHYS(page_to_pfn(page)))) {
			__free_pages(page, 0);
			break;
		}
		set_page_private(page, page_va(a, i)); /* the owner's word: where the page is mapped */
		a->pages[i] = (unsigned long)page;
		__atomic_fetch_add(&nr_vmalloc_pages, 1, __ATOMIC_RELAXED);
		set_page_movable(page, &vmalloc_movable_ops);
	}
	return i;
}

/* Undoes fill_area() that mapped n pages: unmapped, not movable, freed, the place given back. */
static void undo_area(struct vm_area *a, unsigned long n)
{
	unsigned long flags = lock_areas();

	for (unsigned long i = 0; i < n; i++)
		clear_page_movable(slot_page(a->pages[i]));
	unlock_areas(flags);
	arch_vmalloc_unmap(a->addr, page_va(a, n));
	free_area_pages(a, n);
	area_delete(a);
}

#define VMALLOC_GFP (__GFP_ZERO | __GFP_NOWARN | __GFP_HIGH)

void *__vmalloc(size_t size, gfp_t gfp)
{
	bool quiet = gfp & __GFP_NOWARN;
	struct vm_area *a;
	unsigned long n;

	if (gfp & ~VMALLOC_GFP) {
		printk("vmalloc: gfp %#x has flags vmalloc does not take (only __GFP_ZERO, __GFP_NOWARN, __GFP_HIGH)\n", gfp);
		return NULL;
	}
	if (!size || size > range_end - range_start || !mm_vmalloc_end) {
		if (!quiet)
			printk("vmalloc: %zu bytes: %s\n", size, !mm_vmalloc_end ? "no vmalloc range here" :
			       size ? "larger than the vmalloc range" : "a size of 0");
		return NULL;
	}
	n = PFN_UP(size);
	a = area_new(n, AREA_VMALLOC, "vmalloc", quiet);
	if (!a)
		return NULL;
	unsigned long mapped = fill_area(a, gfp | __GFP_NOWARN);
	if (mapped < n) {
		undo_area(a, mapped);
		if (!quiet)
			printk("vmalloc: %zu bytes: out of memory after %lu of %lu pages\n", size, mapped, n);
		return NULL;
	}
	area_publish(a);
	return (void *)a->addr;
}

void *vmalloc(size_t size) { return __vmalloc(size, 0); }
void *vzalloc(size_t size) { return __vmalloc(size, __GFP_ZERO); }

void vfree(const void *addr)
{
	struct vm_area *a;

	if (!addr)
		return;
	a = area_take_for_free(addr, AREA_VMALLOC, "vfree");
	if (!a)
		return;
	arch_vmalloc_unmap(a->addr, page_va(a, a->nr_pages));
	free_area_pages(a, a->nr_pages);
	area_delete(a);
}

unsigned long vmalloc_nr_pages(void) { return __atomic_load_n(&nr_vmalloc_pages, __ATOMIC_RELAXED); }
unsigned long vmalloc_marker_faults(void) { return __atomic_load_n(&nr_marker_faults, __ATOMIC_RELAXED); }

/* ---- vmap --------------------------------------------------------------------------------- */

/* Why vmap() refuses pages[]/count/flags, or NULL. */
static const char *vmap_refusal(struct page **pages, unsigned int count, unsigned long flags)
{
	if (!count || !pages)
		return "no pages";
	if (flags & ~VM_MAP)
		return "flags other than VM_MAP";
	for (unsigned int i = 0; i < count; i++)
		if (!pages[i])
			return "a NULL page";
	if (!mm_vmalloc_end)
		return "no vmalloc range here";
	return NULL;
}

void *vmap(struct page **pages, unsigned int count, unsigned long flags)
{
	const char *why = vmap_refusal(pages, count, flags);
	struct vm_area *a;
	unsigned int i;

	if (why) {
		printk("vmap: %u pages: %s\n", count, why);
		return NULL;
	}
	a = area_new(count, AREA_VMAP, "vmap", false);
	if (!a)
		return NULL;
	for (i = 0; i < count; i++) {
		if (arch_vmalloc_map_page(page_va(a, i), PFN_PHYS(page_to_pfn(pages[i]))))
			break;
		a->pages[i] = (unsigned long)pages[i];
	}
	if (i < count) {
		printk("vmap: %u pages: no memory for the page tables\n", count);
		arch_vmalloc_unmap(a->addr, page_va(a, i));
		area_delete(a);
		return NULL;
	}
	area_publish(a);
	return (void *)a->addr;
}

void vunmap(const void *addr)
{
	struct vm_area *a = area_take_for_free(addr, AREA_VMAP, "vunmap");

	if (!a)
		return;
	arch_vmalloc_unmap(a->addr, page_va(a, a->nr_pages));
	area_delete(a);
}

/* ---- lookups ------------------------------------------------------------------------------ */

bool is_vmalloc_addr(const void *addr)
{
	return (uintptr_t)addr >= mm_vmalloc_start && (uintptr_t)addr < mm_vmalloc_end;
}

/*
 * The slot of the page that holds addr in a's page array, or NULL when addr is a's guard page.
 * Lock held.
 */
static unsigned long *slot_of(struct vm_area *a, uintptr_t addr)
{
	unsigned long i = (addr - a->addr) / PAGE_SIZE;

	return i < a->nr_pages ? &a->pages[i] : NULL;
}

struct page *vmalloc_to_page(const void *addr)
{
	struct page *page = NULL;
	struct vm_area *a;
	unsigned long flags, *slot;

	if (!is_vmalloc_addr(addr))
		return NULL;
	flags = lock_areas();
	a = area_find((uintptr_t)addr);
	slot = a && a->state != AREA_BUILDING ? slot_of(a, (uintptr_t)addr) : NULL;
	if (slot)
		page = slot_page(*slot);
	unlock_areas(flags);
	return page;
}

/*
 * What a fault at addr is: 1, a page under a migration marker; 0, a page mapped (its move ended
 * since the fault: retry); -1, nothing mapped there for anyone (a real fault).
 */
static int fault_kind(uintptr_t addr)
{
	unsigned long flags = lock_areas();
	struct vm_area *a = area_find(addr);
	unsigned long *slot = a && a->state != AREA_BUILDING ? slot_of(a, addr) : NULL;
	int kind = !slot ? -1 : *slot & SLOT_UNMAPPED ? 1 : a->state == AREA_LIVE ? 0 : -1;

	unlock_areas(flags);
	return kind;
}

bool vmalloc_fault(uintptr_t addr)
{
	int kind;

	if (!is_vmalloc_addr((const void *)addr))
		return false;
	kind = fault_kind(addr);
	if (kind == 1)
		__atomic_fetch_add(&nr_marker_faults, 1, __ATOMIC_RELAXED);
	/* The area is looked up afresh each time: it may be freed as soon as the move ends. */
	while (kind == 1)
		kind = fault_kind(addr);
	return kind == 0;
}

/* ---- kvmalloc ----------------------------------------------------------------------------- */

void *kvmalloc(size_t size, gfp_t gfp)
{
	void *p;

	if (gfp & ~VMALLOC_GFP) {
		printk("kvmalloc: gfp %#x has flags kvmalloc does not take (only __GFP_ZERO, __GFP_NOWARN, __GFP_HIGH)\n", gfp);
		return NULL;
	}
	if (size <= KMALLOC_MAX_CACHE_SIZE) {
		p = kmalloc(size, gfp | __GFP_NOWARN);
		if (p)
			return p;
	}
	return __vmalloc(size, gfp);
}

void *kvzalloc(size_t size, gfp_t gfp) { return kvmalloc(size, gfp | __GFP_ZERO); }

void kvfree(const void *addr)
{
	if (is_vmalloc_addr(addr))
		vfree(addr);
	else
		kfree(addr);
}

/* ---- the range ---------------------------------------------------------------------------- */

void vmalloc_init(void)
{
	unsigned long flags = arch_irq_save();

	arch_spin_lock(&vmalloc_lock);
	range_start = mm_vmalloc_start;
	range_end = mm_vmalloc_end;
	root = NULL;
	nr_vmalloc_pages = 0;
	arch_spin_unlock(&vmalloc_lock);
	arch_irq_restore(flags);
}

int vmalloc_set_range(uintptr_t start, uintptr_t end)
{
	unsigned long flags;
	int err = 0;

	if (start < mm_vmalloc_start || end > mm_vmalloc_end || start >= end || (start | end) & (PAGE_SIZE - 1))
		return -EINVAL;
	flags = lock_areas();
	if (root && root != &sentinel) {
		err = -EBUSY;
	} else {
		range_start = start;
		range_end = end;
		tree_reset();
	}
	unlock_areas(flags);
	return err;
}

/* ---- movable pages (mm/migrate.h) --------------------------------------------------------- */

/*
 * The area and slot of page, which a migration holds (SLOT_ISOLATED): its area cannot go while
 * it does. Lock held.
 */
static unsigned long *isolated_slot(struct page *page)
{
	struct vm_area *a = area_find(page->private);
	unsigned long *slot = a ? slot_of(a, page->private) : NULL;

	MM_BUG_ON(!slot || slot_page(*slot) != page || !(*slot & SLOT_ISOLATED), page,
		  "vmalloc: the page at %#lx is not isolated", page->private);
	return slot;
}

static bool vmalloc_isolate_page(struct page *page)
{
	unsigned long flags = lock_areas();
	struct vm_area *a = area_find(page->private);
	unsigned long *slot = a && a->kind == AREA_VMALLOC && a->state == AREA_LIVE ? slot_of(a, page->private) : NULL;
	bool ok = slot && *slot == (unsigned long)page; /* still this area's page, and not held */

	if (ok) {
		*slot |= SLOT_ISOLATED;
		a->nr_isolated++;
	}
	unlock_areas(flags);
	return ok;
}

static void vmalloc_unmap_page(struct page *page)
{
	unsigned long flags = lock_areas();

	*isolated_slot(page) |= SLOT_UNMAPPED; /* before the marker: a fault on it finds the mark */
	unlock_areas(flags);
	arch_vmalloc_set_marker(page->private);
}

/* Puts page in its slot, the marks cleared, and lets the area go. */
static void release_slot(struct page *old, struct page *now)
{
	unsigned long flags = lock_areas();
	unsigned long *slot = isolated_slot(old);

	*slot = (unsigned long)now;
	area_find(old->private)->nr_isolated--;
	unlock_areas(flags);
}

/* Was page's mapping replaced by a marker (vmalloc_unmap_page())? */
static bool slot_unmapped(struct page *page)
{
	unsigned long flags = lock_areas();
	bool unmapped = *isolated_slot(page) & SLOT_UNMAPPED;

	unlock_areas(flags);
	return unmapped;
}

static int vmalloc_migrate_page(struct page *dst, struct page *src)
{
	if (!slot_unmapped(src))
		return -EAGAIN; /* still mapped: the old mapping must go before the new one is made */
	arch_vmalloc_clear_marker(src->private, PFN_PHYS(page_to_pfn(dst)));
	release_slot(src, dst);
	return 0;
}

static void vmalloc_putback_page(struct page *page)
{
	if (slot_unmapped(page))
		arch_vmalloc_clear_marker(page->private, PFN_PHYS(page_to_pfn(page)));
	release_slot(page, page);
}

static const struct movable_operations vmalloc_movable_ops = {
	.name = "vmalloc",
	.isolate_page = vmalloc_isolate_page,
	.unmap_page = vmalloc_unmap_page,
	.migrate_page = vmalloc_migrate_page,
	.putback_page = vmalloc_putback_page,
};
