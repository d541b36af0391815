/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Source view's model (mg-line-figures.c) on hand-made stacks of
 * known counts: each line's self and total samples, a recursion counted
 * once, an inlined call on its caller's line, other files and
 * unresolved frames left out, the time bins of the sparklines, one stack
 * in several windows, the hot lines and the namer's cache. */
#include "plot/mg-line-figures.h"

/* Addresses: 0x1LL and 0x2LL name /src/prog.c line 0xLL (decimal LL of
 * the low byte); 0x5xx an inlined function of /src/inl.h called on
 * prog.c line 40; 0x9xx /src/other.c; anything else unresolved. */
static guint
test_name (const MgStackModule *module, guint64 vaddr, MgFrameNameEntry *entries, guint max,
           gpointer user_data)
{
  guint *calls = user_data;

  g_assert_null (module);
  g_assert_cmpuint (max, >=, 2);
  (*calls)++;
  switch (vaddr >> 8)
    {
    case 1:
    case 2:
      entries[0] = (MgFrameNameEntry) { vaddr >> 8 == 1 ? "main" : "a", "/src/prog.c",
                                        (guint) (vaddr & 0xff) };
      return 1;
    case 5:
      entries[0] = (MgFrameNameEntry) { "inl", "/src/inl.h", 7 };
      entries[1] = (MgFrameNameEntry) { "d", "/src/prog.c", 40 };
      return 2;
    case 9:
      entries[0] = (MgFrameNameEntry) { "other", "/src/other.c", 12 };
      return 1;
    default:
      return 0;
    }
}

static void
add (MgLineFigures *figures, guint64 count, double window_start, guint n, ...)
{
  MgStackFrame frames[16];
  va_list ap;

  va_start (ap, n);
  for (guint i = 0; i < n; i++)
    frames[i] = (MgStackFrame) { .module = MG_STACK_MODULE_UNKNOWN, .vaddr = va_arg (ap, guint64) };
  va_end (ap);
  mg_line_figures_add_stack (figures, NULL, frames, n, count, window_start, window_start + 1);
}

static void
check_line (MgLineFigures *figures, guint line, guint64 self, guint64 total, gboolean hot,
            const guint64 bins[4])
{
  const MgLineFigure *f = mg_line_figures_lookup (figures, line);

  g_assert_nonnull (f);
  g_assert_cmpuint (f->line, ==, line);
  g_assert_cmpuint (f->self, ==, self);
  g_assert_cmpuint (f->total, ==, total);
  g_assert_cmpint (f->hot, ==, hot);
  for (guint b = 0; b < 4; b++)
    g_assert_cmpuint (f->bins[b], ==, bins[b]);
}

static void
test_lines (void)
{
  guint calls = 0;
  /* The run's 4 s in 4 bins of 1 s. */
  g_autoptr (MgLineFigures) figures = mg_line_figures_new ("/src/prog.c", test_name, &calls, 0, 4, 4);

  /* Callers' return addresses are named one byte earlier: 0x10b → line 10. */
  add (figures, 30, 0, 2, 0x210, 0x10b);           /* a:16 ← main:10 */
  add (figures, 10, 2, 2, 0x214, 0x10b);           /* a:20 ← main:10 */
  add (figures, 5, 3, 4, 0x216, 0x219, 0x219, 0x10b); /* a:22 ← a:24 ← a:24 ← main:10 */
  add (figures, 20, 1, 2, 0x905, 0x10d);           /* other.c ← main:12 */
  add (figures, 15, 0, 2, 0x500, 0x10b);           /* inl.h, inlined at 40 ← main:10 */
  add (figures, 19, 3, 2, 0x777, 0x10b);           /* unresolved ← main:10 */
  add (figures, 1, 0, 1, 0x230);                   /* a:48 alone */
  mg_line_figures_finish (figures);

  g_assert_cmpuint (mg_line_figures_get_total (figures), ==, 100);
  g_assert_cmpuint (mg_line_figures_get_n_bins (figures), ==, 4);
  /* Every sample in its bin, in the file or not. */
  const guint64 *totals = mg_line_figures_get_bin_totals (figures);
  g_assert_cmpuint (totals[0], ==, 46);
  g_assert_cmpuint (totals[1], ==, 20);
  g_assert_cmpuint (totals[2], ==, 10);
  g_assert_cmpuint (totals[3], ==, 24);
  g_assert_cmpuint (mg_line_figures_get_n_lines (figures), ==, 8);
  /* First line first. */
  static const guint order[] = { 10, 12, 16, 20, 22, 24, 40, 48 };
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    g_assert_cmpuint (mg_line_figures_get_line (figures, i)->line, ==, order[i]);

  check_line (figures, 10, 0, 79, TRUE, (guint64[]) { 45, 0, 10, 24 });
  check_line (figures, 12, 0, 20, TRUE, (guint64[]) { 0, 20, 0, 0 });
  check_line (figures, 16, 30, 30, TRUE, (guint64[]) { 30, 0, 0, 0 });
  check_line (figures, 20, 10, 10, TRUE, (guint64[]) { 0, 0, 10, 0 });
  check_line (figures, 22, 5, 5, TRUE, (guint64[]) { 0, 0, 0, 5 });
  /* The recursion's line counts its stack once. */
  check_line (figures, 24, 0, 5, TRUE, (guint64[]) { 0, 0, 0, 5 });
  /* The inlined function's own line is in inl.h: its call site in
   * prog.c has the total, no self. */
  check_line (figures, 40, 0, 15, TRUE, (guint64[]) { 15, 0, 0, 0 });
  /* 1 % of the samples: hot from there. */
  check_line (figures, 48, 1, 1, TRUE, (guint64[]) { 1, 0, 0, 0 });
  g_assert_cmpfloat_with_epsilon (mg_line_figures_share (figures, 79), 79.0, 1e-9);
  g_assert_null (mg_line_figures_lookup (figures, 11));
  g_assert_null (mg_line_figures_lookup (figures, 7));
  /* Each distinct address named once: 10 of them. */
  g_assert_cmpuint (calls, ==, 10);
}

static void
test_cold_and_bins (void)
{
  guint calls = 0;
  g_autoptr (MgLineFigures) figures = mg_line_figures_new ("/src/prog.c", test_name, &calls, 10, 20, 4);

  add (figures, 199, 14, 1, 0x210);   /* window (14, 15]: middle 14.5, bin 1 */
  add (figures, 1, 8, 1, 0x230);      /* before the range: the first bin */
  add (figures, 0, 12, 1, 0x240);     /* no samples: no line */
  /* One stack in two windows, its lines found once: 3 in (10, 11], bin
   * 0, and 4 in (17, 18], bin 3. */
  MgStackFrame frames[] = { { MG_STACK_MODULE_UNKNOWN, 0x216 } };
  guint named = calls;
  mg_line_figures_add_windows (figures, NULL, frames, 1, (guint64[]) { 3, 4 },
                               (double[]) { 10, 17 }, (double[]) { 11, 18 }, 2);
  g_assert_cmpuint (calls, ==, named + 1);
  mg_line_figures_finish (figures);

  g_assert_cmpuint (mg_line_figures_get_total (figures), ==, 207);
  g_assert_cmpuint (mg_line_figures_get_n_lines (figures), ==, 3);
  check_line (figures, 16, 199, 199, TRUE, (guint64[]) { 0, 199, 0, 0 });
  check_line (figures, 22, 7, 7, TRUE, (guint64[]) { 3, 0, 0, 4 });
  /* 0.5 %: not hot. */
  check_line (figures, 48, 1, 1, FALSE, (guint64[]) { 1, 0, 0, 0 });
  const guint64 *totals = mg_line_figures_get_bin_totals (figures);
  g_assert_cmpuint (totals[0], ==, 4);
  g_assert_cmpuint (totals[1], ==, 199);
  g_assert_cmpuint (totals[2], ==, 0);
  g_assert_cmpuint (totals[3], ==, 4);
  g_assert_null (mg_line_figures_lookup (figures, 64));
}

static void
test_empty (void)
{
  guint calls = 0;
  g_autoptr (MgLineFigures) figures = mg_line_figures_new ("/src/none.c", test_name, &calls, 0, 1, 0);

  add (figures, 10, 0, 2, 0x210, 0x10b);
  mg_line_figures_finish (figures);
  g_assert_cmpuint (mg_line_figures_get_total (figures), ==, 10);
  g_assert_cmpuint (mg_line_figures_get_n_bins (figures), ==, 1);
  g_assert_cmpuint (mg_line_figures_get_n_lines (figures), ==, 0);
  g_assert_cmpfloat (mg_line_figures_share (figures, 0), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/line-figures/lines", test_lines);
  g_test_add_func ("/line-figures/cold-and-bins", test_cold_and_bins);
  g_test_add_func ("/line-figures/empty", test_empty);
  return g_test_run ();
}
