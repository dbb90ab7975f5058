/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of backtrace_walk() (kernel/backtrace.h) over made-up stacks, on the host and in the
 * kernel: it follows a chain of frames to its end, and stops, without reading outside the stack,
 * at every kind of broken link.
 */
#include "kernel/backtrace.h"
#include "tests/ktest/ktest.h"

/* A made-up stack of 32 words; a frame is two of them: the caller's frame, the return address. */
struct fake_stack {
	uintptr_t w[32];
};

static uintptr_t at(struct fake_stack *s, int i) { return (uintptr_t)&s->w[i]; }
static uintptr_t lo(struct fake_stack *s) { return at(s, 0); }
static uintptr_t hi(struct fake_stack *s) { return at(s, 32); }

/* Makes word i a frame that returns to pc and links to fp. */
static void frame(struct fake_stack *s, int i, uintptr_t fp, uintptr_t pc)
{
	s->w[i] = fp;
	s->w[i + 1] = pc;
}

/* Three frames, each higher than the one before, the last linking to 0. */
static void three_frames(struct fake_stack *s)
{
	*s = (struct fake_stack){ { 0 } };
	frame(s, 2, at(s, 10), 0x1111);
	frame(s, 10, at(s, 20), 0x2222);
	frame(s, 20, 0, 0x3333);
}

/* backtrace_walk() from the frame at word 2, within the whole of s. */
static int walk(struct fake_stack *s, uintptr_t *pcs, int max, enum backtrace_end *end)
{
	return backtrace_walk(at(s, 2), lo(s), hi(s), pcs, max, end);
}

static void backtrace_walk_follows_the_chain_to_its_end(struct ktest *t)
{
	struct fake_stack s;
	uintptr_t pcs[8] = { 0 };
	enum backtrace_end end = BACKTRACE_DEPTH;

	three_frames(&s);
	KT_EXPECT_EQ(t, walk(&s, pcs, 8, &end), 3);
	KT_EXPECT_EQ(t, pcs[0], 0x1111);
	KT_EXPECT_EQ(t, pcs[1], 0x2222);
	KT_EXPECT_EQ(t, pcs[2], 0x3333);
	KT_EXPECT_EQ(t, end, BACKTRACE_OUTERMOST);
	KT_EXPECT_EQ(t, backtrace_walk(0, lo(&s), hi(&s), pcs, 8, &end), 0);
	KT_EXPECT_EQ(t, end, BACKTRACE_OUTERMOST);
}

static void backtrace_walk_stops_at_a_null_return_address(struct ktest *t)
{
	struct fake_stack s;
	uintptr_t pcs[8];
	enum backtrace_end end = BACKTRACE_DEPTH;

	three_frames(&s);
	s.w[11] = 0;
	KT_EXPECT_EQ(t, walk(&s, pcs, 8, &end), 1);
	KT_EXPECT_EQ(t, end, BACKTRACE_OUTERMOST);
}

static void backtrace_walk_stops_at_max_frames(struct ktest *t)
{
	struct fake_stack s;
	uintptr_t pcs[8];
	enum backtrace_end end = BACKTRACE_OUTERMOST;

	three_frames(&s);
	KT_EXPECT_EQ(t, walk(&s, pcs, 2, &end), 2);
	KT_EXPECT_EQ(t, end, BACKTRACE_DEPTH);
	KT_EXPECT_EQ(t, walk(&s, pcs, 3, &end), 3);
	KT_EXPECT_EQ(t, end, BACKTRACE_OUTERMOST); /* exactly max frames is not "more" */
	KT_EXPECT_EQ(t, walk(&s, pcs, 0, NULL), 0);
}

static void backtrace_walk_stops_at_an_unaligned_frame_pointer(struct ktest *t)
{
	struct fake_stack s;
	uintptr_t pcs[8];
	enum backtrace_end end = BACKTRACE_OUTERMOST;

	three_frames(&s);
	s.w[10] = at(&s, 20) + 4;
	KT_EXPECT_EQ(t, walk(&s, pcs, 8, &end), 2);
	KT_EXPECT_EQ(t, end, BACKTRACE_UNALIGNED);
}

/* Outside the stack, straddling its top, or not above the frame before: the walk stops there. */
static void backtrace_walk_stays_on_the_stack_and_goes_up(struct ktest *t)
{
	struct fake_stack s;
	uintptr_t pcs[8];
	enum backtrace_end end;
	const struct { uintptr_t link; int frames; const char *what; } cases[] = {
		{ hi(&s), 2, "at the stack's top" },
		{ at(&s, 31), 2, "a frame straddling the top" },
		{ hi(&s) + 64, 2, "above the stack" },
		{ lo(&s) - 16, 2, "below the stack" },
		{ at(&s, 10), 2, "a frame linking to itself" },
		{ at(&s, 2), 2, "a frame linking down" },
		{ at(&s, 11), 2, "a frame overlapping the one before" },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum backtrace_end want = cases[i].link & 7 ? BACKTRACE_UNALIGNED : BACKTRACE_OFF_STACK;

		three_frames(&s);
		s.w[10] = cases[i].link;
		end = BACKTRACE_OUTERMOST;
		KT_EXPECT(t, walk(&s, pcs, 8, &end) == cases[i].frames,
			  "%s: not %d frames", cases[i].what, cases[i].frames);
		KT_EXPECT(t, end == want, "%s: the walk ended with %d, want %d", cases[i].what, end, want);
	}
	KT_EXPECT_EQ(t, backtrace_walk(at(&s, 2), at(&s, 4), hi(&s), pcs, 8, &end), 0);
	KT_EXPECT_EQ(t, end, BACKTRACE_OFF_STACK);
}

KTEST_SUITE(backtrace_walk,
	    KTEST_CASE(backtrace_walk_follows_the_chain_to_its_end),
	    KTEST_CASE(backtrace_walk_stops_at_a_null_return_address),
	    KTEST_CASE(backtrace_walk_stops_at_max_frames),
	    KTEST_CASE(backtrace_walk_stops_at_an_unaligned_frame_pointer),
	    KTEST_CASE(backtrace_walk_stays_on_the_stack_and_goes_up));
