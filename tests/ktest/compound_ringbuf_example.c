/* SPDX-License-Identifier: MIT */
/*
 * Example: a driver-style ring buffer in one compound page, handed out page by page.
 *
 * A driver allocates its buffer as a compound page so that the buffer stays one unit whoever holds
 * it: a reader that maps one sub-page (as an mmap fault handler would) takes a reference on that
 * sub-page, which is a reference on the whole buffer. When the driver closes, the buffer lives on
 * until the last reader lets go; then its destructor returns all of it to the buddy allocator.
 */
#include "tests/ktest/compound_helpers.h"

#include "lib/string.h"

struct ringbuf {
	struct page *head;  /* the buffer: a compound page of 2^order pages */
	size_t size;        /* bytes */
	size_t wpos, rpos;  /* bytes written and read since the start; wpos - rpos <= size */
};

static int ringbuf_open(struct ringbuf *rb, unsigned int order)
{
	rb->head = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_ZERO, order);
	if (!rb->head)
		return -ENOMEM;
	rb->size = PAGE_SIZE << order;
	rb->wpos = rb->rpos = 0;
	return 0;
}

/* Where byte pos of the stream lives: the buffer is contiguous in the direct map. */
static char *ringbuf_byte(struct ringbuf *rb, size_t pos)
{
	return (char *)page_address(rb->head) + pos % rb->size;
}

/* Copies as much of data as fits; returns the number of bytes written. */
static size_t ringbuf_write(struct ringbuf *rb, const char *data, size_t len)
{
	size_t n = MIN(len, rb->size - (rb->wpos - rb->rpos));

	for (size_t i = 0; i < n; i++)
		*ringbuf_byte(rb, rb->wpos + i) = data[i];
	rb->wpos += n;
	return n;
}

/* The sub-page holding byte pos, with a reference for the reader (put_page() when done). */
static struct page *ringbuf_map_page(struct ringbuf *rb, size_t pos)
{
	struct page *page = &rb->head[(pos % rb->size) / PAGE_SIZE];

	get_page(page);
	return page;
}

/* The reader consumed up to pos. */
static void ringbuf_consume(struct ringbuf *rb, size_t pos) { rb->rpos = pos; }

/* The driver closes: its reference goes; readers' references keep the buffer alive. */
static void ringbuf_close(struct ringbuf *rb)
{
	put_page(rb->head);
	rb->head = NULL;
}

/* A reader: reads byte pos through the sub-page it was handed. */
static char reader_byte(struct page *sub, size_t pos)
{
	return ((const char *)page_address(sub))[pos % PAGE_SIZE];
}

static char pattern(size_t i) { return (char)('a' + i % 23); }

/* A reader checks bytes [from, to) through the sub-pages the driver hands it, one at a time. */
static bool reader_checks(struct ktest *t, struct ringbuf *rb, size_t from, size_t to)
{
	while (from < to) {
		struct page *sub = ringbuf_map_page(rb, from);
		size_t end = MIN(to, ALIGN_DOWN(from, PAGE_SIZE) + PAGE_SIZE);
		bool ok = KT_EXPECT_EQ(t, compound_head(sub), rb->head);

		for (; ok && from < end; from++)
			ok = KT_EXPECT_EQ(t, reader_byte(sub, from), pattern(from));
		put_page(sub);
		if (!ok)
			return false;
	}
	return true;
}

static void ringbuf_streams_through_subpages(struct ktest *t)
{
	unsigned long before = test_free_pages();
	struct ringbuf rb;
	char chunk[1000];

	KT_ASSERT(t, ringbuf_open(&rb, 2) == 0, "ringbuf_open failed");
	while (rb.wpos < 5 * rb.size) {
		for (size_t i = 0; i < sizeof(chunk); i++)
			chunk[i] = pattern(rb.wpos + i);
		ringbuf_write(&rb, chunk, sizeof(chunk));
		if (!reader_checks(t, &rb, rb.rpos, rb.wpos))
			break;
		ringbuf_consume(&rb, rb.wpos);
	}
	ringbuf_close(&rb);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

static void ringbuf_outlives_driver_while_a_reader_holds_a_page(struct ktest *t)
{
	unsigned long before = test_free_pages();
	struct ringbuf rb;
	struct page *sub;

	KT_ASSERT(t, ringbuf_open(&rb, 2) == 0, "ringbuf_open failed");
	ringbuf_write(&rb, "hello, compound world", 21);
	rb.wpos = rb.rpos = 3 * PAGE_SIZE; /* move on to the last page */
	ringbuf_write(&rb, "tail", 4);
	sub = ringbuf_map_page(&rb, 3 * PAGE_SIZE);
	ringbuf_close(&rb);
	KT_EXPECT_EQ(t, test_free_pages(), before - 4);
	KT_EXPECT_EQ(t, page_count(sub), 1);
	KT_EXPECT(t, !memcmp(page_address(sub), "tail", 4), "reader sees its data after close");
	put_page(sub);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

KTEST_SUITE(compound_ringbuf_example,
	    KTEST_CASE(ringbuf_streams_through_subpages),
	    KTEST_CASE(ringbuf_outlives_driver_while_a_reader_holds_a_page));
