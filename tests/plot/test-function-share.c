/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A function's share per window (mg-function-share.c) over stacks of known
 * counts in a profile's stacks member (mg-stack-windows.c): windows of two
 * processes that do not line up with the grid, identical stacks of two
 * processes merged, recursion counted once, an inlined function, one
 * process alone; each from the stacks' windows and from the call index
 * (mg_call_index_function_share ()); a file's line figures both ways
 * (mg_call_index_add_line_figures ()); the threads the index counted;
 * the namer's files of a function named in two files. */
#include "mg-config.h"

#include <math.h>

#include "graph-fixture.h"
#include "stacks-fixture.h"
#include "plot/mg-call-index.h"
#include "plot/mg-function-share.h"
#include "profile/mg-profile-internal.h"

/* Addresses by function: 0x1xx main, 0x2xx a, 0x3xx b, 0x4xx c, 0x5xx
 * "inl" inlined in "d". */
static guint
test_name (const MgStackModule *module, guint64 vaddr, MgFrameNameEntry *entries, guint max,
           gpointer user_data)
{
  static const char *const names[] = { NULL, "main", "a", "b", "c" };

  if (vaddr >> 8 == 5)
    {
      entries[0] = (MgFrameNameEntry) { "inl", "/src/inl.h", 7 };
      entries[1] = (MgFrameNameEntry) { "d", "/src/d.c", 20 };
      return 2;
    }
  /* Another static function named b, in another file of the module. */
  if (vaddr >> 8 == 6)
    {
      entries[0] = (MgFrameNameEntry) { "b", "/src/other.c", 3 };
      return 1;
    }
  if (vaddr >> 8 >= 1 && vaddr >> 8 <= 4)
    {
      entries[0] = (MgFrameNameEntry) { names[vaddr >> 8], "/src/prog.c", 1 };
      return 1;
    }
  return 0;
}

/* Grid: 4 windows of 1 s. Process 0 (its windows are the grid's):
 *   0: main→a ×30, main→b→c ×10   1: main→a→a ×20
 *   2: main→b→c ×5                3: main→d[inl] ×8
 * Process 1, windows [0, 1.5] (middle in grid 0) and [1.5, 4] (grid 2):
 *   main→a ×10, then main→b→c ×15.
 * Process 0's main→d[inl] was sampled in its thread 2. */
static MgProfile *
stacks_profile (void)
{
  MgProfile *profile = graph_fixture_profile (2, 1, 4, 4.0, FALSE);

  stacks_fixture_set (profile, "process 0\n"
                               "windows 0..1 1..2 2..3 3..4\n"
                               "0 0x102;0x201 30\n"
                               "0 0x102;0x302;0x401 10\n"
                               "1 0x102;0x202;0x201 20\n"
                               "2 0x102;0x302;0x401 5\n"
                               "3 0x102;0x501 8 thread 2\n"
                               "process 1\n"
                               "windows 0..1.5 1.5..4\n"
                               "stack 0x102;0x302;0x401\n"
                               "0 0x102;0x201 10\n"
                               "1 0x102;0x302;0x401 15\n");
  return profile;
}

static void
check_values (const char *how, const char *function, const double *share, const double want[4])
{
  for (guint w = 0; w < 4; w++)
    {
      if (isnan (want[w]))
        {
          if (!isnan (share[w]))
            g_error ("%s, %s, window %u: %g, expected none", how, function, w, share[w]);
        }
      else if (!(fabs (share[w] - want[w]) < 1e-9))
        g_error ("%s, %s, window %u: %g, expected %g", how, function, w, share[w], want[w]);
    }
}

/* Both ways: the stacks' windows, and the call index's stacks of the
 * function (what the row uses once the Code pane built the index). */
static void
check_share (MgProfile *profile, int process, const char *function, const double want[4])
{
  g_autoptr (MgFrameNamer) namer = mg_frame_namer_new (test_name, NULL, NULL);
  g_autoptr (MgStackSet) modules = mg_stack_set_new (profile, -1, 0, 0);
  g_autoptr (MgStackWindows) windows = mg_stack_windows_new (profile, process);
  g_autoptr (MgFrameNamer) index_namer = mg_frame_namer_new (test_name, NULL, NULL);
  g_autoptr (MgCallIndex) index = mg_call_index_new (index_namer, profile);
  g_autofree double *share = NULL, *indexed = NULL;
  MgSeriesView grid;

  g_assert_true (mg_series_view_init (&grid, profile, 0, -1));
  g_assert_cmpuint (grid.n, ==, 4);
  share = mg_function_share_compute (namer, modules, windows, function, &grid);
  check_values ("stacks' windows", function, share, want);
  indexed = mg_call_index_function_share (index, process, function, &grid);
  check_values ("call index", function, indexed, want);
}

static void
test_windows (void)
{
  g_autoptr (MgProfile) profile = stacks_profile ();
  g_autoptr (MgStackWindows) all = mg_stack_windows_new (profile, -1);
  g_autoptr (MgStackWindows) one = mg_stack_windows_new (profile, 1);
  const MgStackWindowCount *c;
  guint n_frames;

  /* main→a and main→b→c of both processes are one stack each. */
  g_assert_cmpuint (mg_stack_windows_get_n_stacks (all), ==, 4);
  g_assert_cmpuint (mg_stack_windows_get_n_counts (all), ==, 7);
  g_assert_cmpuint (mg_stack_windows_get_n_stacks (one), ==, 2);
  c = mg_stack_windows_get_count (one, 1);
  g_assert_cmpfloat (c->start_s, ==, 1.5);
  g_assert_cmpfloat (c->end_s, ==, 4);
  g_assert_cmpuint (c->count, ==, 15);
  g_assert_cmpuint (mg_stack_windows_get_frames (one, c->stack, &n_frames)[0].vaddr, ==, 0x401);
  g_assert_cmpuint (n_frames, ==, 3);
}

static void
test_shares (void)
{
  g_autoptr (MgProfile) profile = stacks_profile ();
  /* a: (30 + 10) of 50, 20 of 20 (its recursion once), none of 20, of 8. */
  const double a[4] = { 80, 100, 0, 0 };
  const double c[4] = { 20, 0, 100, 0 };
  const double inl[4] = { 0, 0, 0, 100 };
  const double main_[4] = { 100, 100, 100, 100 };
  const double a1[4] = { 100, NAN, 0, NAN };
  const double nothing[4] = { 0, 0, 0, 0 };

  check_share (profile, -1, "a", a);
  check_share (profile, -1, "c", c);
  check_share (profile, -1, "inl", inl);
  check_share (profile, -1, "d", inl);
  check_share (profile, -1, "main", main_);
  check_share (profile, 1, "a", a1);
  check_share (profile, -1, "no_such_function", nothing);
}

/* Threads: counted while the index reads the stacks, as a stack set of
 * every process does it in a pass of its own. */
static void
test_threads (void)
{
  g_autoptr (MgProfile) profile = stacks_profile ();
  g_autoptr (MgFrameNamer) namer = mg_frame_namer_new (test_name, NULL, NULL);
  g_autoptr (MgCallIndex) index = mg_call_index_new (namer, profile);
  g_autoptr (MgStackSet) every = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);

  g_assert_cmpuint (mg_call_index_get_n_threads (index), ==, 3);
  g_assert_cmpuint (mg_stack_set_get_n_threads (every), ==, 3);
}

static void
check_line (const MgLineFigures *figures, guint line, guint64 self, guint64 total,
            const guint64 bins[4])
{
  const MgLineFigure *f = mg_line_figures_lookup (figures, line);

  g_assert_nonnull (f);
  g_assert_cmpuint (f->self, ==, self);
  g_assert_cmpuint (f->total, ==, total);
  for (guint b = 0; b < 4; b++)
    g_assert_cmpuint (f->bins[b], ==, bins[b]);
}

/* A file's line figures both ways: the stacks' windows and the index. */
static MgLineFigures *
line_figures (MgProfile *profile, MgCallIndex *index, const char *file, int process, double t0,
              double t1)
{
  MgLineFigures *figures = mg_line_figures_new (file, test_name, NULL, 0, 4, 4);

  if (index != NULL)
    mg_call_index_add_line_figures (index, figures, process, t0, t1);
  else
    {
      g_autoptr (MgStackSet) modules = mg_stack_set_new (profile, process, 0, 0);
      g_autoptr (MgStackWindows) windows = mg_stack_windows_new (profile, process);
      mg_line_figures_add_stack_windows (figures, modules, windows, t0, t1);
    }
  mg_line_figures_finish (figures);
  return figures;
}

static void
test_lines (void)
{
  g_autoptr (MgProfile) profile = stacks_profile ();
  g_autoptr (MgFrameNamer) namer = mg_frame_namer_new (test_name, NULL, NULL);
  g_autoptr (MgCallIndex) index = mg_call_index_new (namer, profile);

  for (guint way = 0; way < 2; way++)
    {
      MgCallIndex *with = way ? index : NULL;
      /* prog.c line 1: main in every stack (98 samples), the innermost
       * frame of all but main→d[inl]; the bins of the windows' middles
       * (process 1's at 0.75 s and 2.75 s). */
      g_autoptr (MgLineFigures) prog = line_figures (profile, with, "/src/prog.c", -1, -INFINITY,
                                                     INFINITY);
      g_assert_cmpuint (mg_line_figures_get_total (prog), ==, 98);
      g_assert_cmpuint (mg_line_figures_get_n_lines (prog), ==, 1);
      check_line (prog, 1, 90, 98, (guint64[]) { 50, 20, 20, 8 });
      const guint64 *totals = mg_line_figures_get_bin_totals (prog);
      g_assert_cmpuint (totals[0], ==, 50);
      g_assert_cmpuint (totals[3], ==, 8);
      /* The inlined function's file, and its caller's: only that stack. */
      g_autoptr (MgLineFigures) inl = line_figures (profile, with, "/src/inl.h", -1, -INFINITY,
                                                    INFINITY);
      g_assert_cmpuint (mg_line_figures_get_total (inl), ==, 98);
      g_assert_cmpuint (mg_line_figures_get_n_lines (inl), ==, 1);
      check_line (inl, 7, 8, 8, (guint64[]) { 0, 0, 0, 8 });
      g_autoptr (MgLineFigures) d = line_figures (profile, with, "/src/d.c", -1, -INFINITY,
                                                  INFINITY);
      check_line (d, 20, 0, 8, (guint64[]) { 0, 0, 0, 8 });
      /* Process 1 from 1 s: both its windows overlap the range. */
      g_autoptr (MgLineFigures) one = line_figures (profile, with, "/src/prog.c", 1, 1, 4);
      g_assert_cmpuint (mg_line_figures_get_total (one), ==, 25);
      check_line (one, 1, 25, 25, (guint64[]) { 10, 0, 15, 0 });
      /* Process 0 in (1, 2]: one window; a file no frame names. */
      g_autoptr (MgLineFigures) narrow = line_figures (profile, with, "/src/prog.c", 0, 1, 2);
      g_assert_cmpuint (mg_line_figures_get_total (narrow), ==, 20);
      check_line (narrow, 1, 20, 20, (guint64[]) { 0, 20, 0, 0 });
      g_autoptr (MgLineFigures) none = line_figures (profile, with, "/src/none.c", -1, -INFINITY,
                                                     INFINITY);
      g_assert_cmpuint (mg_line_figures_get_total (none), ==, 98);
      g_assert_cmpuint (mg_line_figures_get_n_lines (none), ==, 0);
    }
}

/* Two static functions of one name in one module are one function of
 * the namer: the files of both count for the Source view's stacks. */
static void
test_namer_files (void)
{
  g_autoptr (MgFrameNamer) namer = mg_frame_namer_new (test_name, NULL, NULL);
  MgStackFrame in_prog = { MG_STACK_MODULE_UNKNOWN, 0x301 }, in_other = { MG_STACK_MODULE_UNKNOWN,
                                                                           0x601 };
  guint n;
  guint b = mg_frame_namer_name_in (namer, NULL, &in_prog, TRUE, &n)[0];

  g_assert_true (mg_frame_namer_names_file (namer, b, "/src/prog.c"));
  g_assert_false (mg_frame_namer_names_file (namer, b, "/src/other.c"));
  g_assert_cmpuint (mg_frame_namer_name_in (namer, NULL, &in_other, TRUE, &n)[0], ==, b);
  g_assert_true (mg_frame_namer_names_file (namer, b, "/src/other.c"));
  g_assert_true (mg_frame_namer_names_file (namer, b, "/src/prog.c"));
  g_assert_false (mg_frame_namer_names_file (namer, b, "/src/none.c"));
  g_assert_false (mg_frame_namer_names_file (namer, b, NULL));
  g_assert_false (mg_frame_namer_names_file (namer, b + 1, "/src/prog.c"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/function-share/windows", test_windows);
  g_test_add_func ("/function-share/shares", test_shares);
  g_test_add_func ("/function-share/threads", test_threads);
  g_test_add_func ("/function-share/lines", test_lines);
  g_test_add_func ("/function-share/namer-files", test_namer_files);
  return g_test_run ();
}
