/* SPDX-License-Identifier: MIT */
/* slabinfo: a line per cache, as /proc/slabinfo's first columns. See mm/slab.h. */
#include "mm/slab.h"

#include "mm/slab_cache.h"

int slabinfo_line(const struct kmem_cache *c, char *buf, size_t size)
{
	struct kmem_cache *m = (struct kmem_cache *)c; /* the counters are only read */

	if (!c)
		return snprintf(buf, size, "%-18s %11s %10s %7s %10s %12s", "# name", "active_objs", "num_objs",
				"objsize", "objperslab", "pagesperslab");
	return snprintf(buf, size, "%-18s %11lu %10lu %7u %10u %12u", c->name, mm_slab_active_objects(m),
			__atomic_load_n(&c->nr_slabs, __ATOMIC_RELAXED) * c->objects, c->size, c->objects,
			1u << c->order);
}

void slabinfo_show(void)
{
	char line[128];
	unsigned long irq;

	slabinfo_line(NULL, line, sizeof(line));
	printk("%s\n", line);
	irq = arch_irq_save();
	arch_spin_lock(&mm_slab_caches_lock);
	for (struct list_head *l = mm_slab_caches.next; l != &mm_slab_caches; l = l->next) {
		slabinfo_line(cache_of_list(l), line, sizeof(line));
		printk("%s\n", line);
	}
	arch_spin_unlock(&mm_slab_caches_lock);
	arch_irq_restore(irq);
}
