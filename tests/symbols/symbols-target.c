/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A C program with known functions for tests/symbols, built -O2 -g: an
 * inline chain (leaf inlined into middle inlined into outer) and a plain
 * function. Each probe's line is marked; the tests find the marks at run
 * time, so lines can move. SYMBOLS_TARGET_CHANGED builds a changed
 * program (another build-id) for the rebuilt-binary test. */
#include "symbols-target-probe.h"

volatile int symbols_target_sink;

static inline __attribute__ ((always_inline)) void
symbols_target_leaf (int n)
{
  symbols_target_probe ("inlined"); /* MARK:leaf-call */
  symbols_target_sink += n;
}

static inline __attribute__ ((always_inline)) void
symbols_target_middle (int n)
{
  symbols_target_leaf (n + 1); /* MARK:middle-call */
  symbols_target_sink += n;
}

__attribute__ ((noinline)) void symbols_target_outer (int n);
__attribute__ ((noinline)) void symbols_target_plain (int n);

__attribute__ ((noinline)) void
symbols_target_outer (int n)
{
  symbols_target_middle (n * 2); /* MARK:outer-call */
  symbols_target_sink += n;
}

__attribute__ ((noinline)) void
symbols_target_plain (int n)
{
  symbols_target_probe ("plain"); /* MARK:plain-call */
  symbols_target_sink += n;
#ifdef SYMBOLS_TARGET_CHANGED
  symbols_target_sink *= 3;
#endif
}

int
main (void)
{
  symbols_target_start ();
  symbols_target_outer (symbols_target_sink);
  symbols_target_plain (symbols_target_sink);
  return 0;
}
