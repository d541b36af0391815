/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Source view's model on a big selection (issue 30, point 5): 100 000
 * distinct stacks of 8 to 31 frames over 5000 functions in 320 files
 * (4 call sites each), each stack counted in 1 to 3 of 4096 windows (its lines found once, as
 * mg_line_figures_add_stack_windows () does); one file's per-line figures and 28
 * sparkline bins, each address named once per computation
 * (the view keeps the symboliser's answers per profile, so a cheap
 * callback stands for them). Median against the views' goal (100 ms).
 * By hand: <build>/tests/bench/bench-line-figures [STACKS]. */
#include <stdlib.h>

#include "plot/mg-line-figures.h"

#define N_FUNCTIONS 5000
#define N_WINDOWS 4096

static guint
bench_name (const MgStackModule *module, guint64 vaddr, MgFrameNameEntry *entries, guint max,
            gpointer user_data)
{
  static char name[32], file[32];
  g_snprintf (name, sizeof name, "function_%u", (guint) (vaddr >> 8));
  g_snprintf (file, sizeof file, "/src/file_%u.c", (guint) (vaddr >> 12));
  entries[0] = (MgFrameNameEntry) { name, file, (guint) (vaddr & 0xff) };
  return 1;
}

/* A stack and the windows that counted it. */
typedef struct {
  MgStackFrame *frames;
  guint n_frames;
  guint n_windows;
  guint64 counts[3];
  double starts[3], ends[3];
} Entry;

static int
compare (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

int
main (int argc, char **argv)
{
  guint n_stacks = argc > 1 ? (guint) atoi (argv[1]) : 100000;
  GRand *rand = g_rand_new_with_seed (30);
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  MgStackFrame *frames = g_new (MgStackFrame, (gsize) n_stacks * 32);
  double runs[7];
  guint n_lines = 0, at = 0, n_counts = 0;

  /* Stacks sharing their outer frames, as real programs' do. */
  for (guint i = 0; i < n_stacks; i++)
    {
      guint depth = (guint) g_rand_int_range (rand, 8, 32);
      for (guint d = 0; d < depth; d++)
        {
          guint pool = d < 11 ? MIN (N_FUNCTIONS, 4u << d) : N_FUNCTIONS;
          guint f = (guint) g_rand_int_range (rand, 0, (gint32) pool);
          /* One of the function's 4 call sites, on its own lines. */
          guint line = 1 + (f * 31 + (guint) g_rand_int_range (rand, 0, 4)) % 200;
          frames[at + depth - 1 - d] = (MgStackFrame) { 0, ((guint64) f << 8) | line };
        }
      Entry e = { frames + at, depth, (guint) g_rand_int_range (rand, 1, 4) };
      for (guint w = 0; w < e.n_windows; w++)
        {
          e.starts[w] = g_rand_int_range (rand, 0, N_WINDOWS);
          e.ends[w] = e.starts[w] + 1;
          e.counts[w] = 1 + i % 7;
        }
      n_counts += e.n_windows;
      g_array_append_val (entries, e);
      at += depth;
    }

  for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      /* file_0.c: functions 0 to 15, the outermost frames': many lines. */
      g_autoptr (MgLineFigures) figures = mg_line_figures_new ("/src/file_0.c", bench_name, NULL, 0,
                                                               N_WINDOWS, 28);
      for (guint i = 0; i < entries->len; i++)
        {
          const Entry *e = &g_array_index (entries, Entry, i);
          mg_line_figures_add_windows (figures, NULL, e->frames, e->n_frames, e->counts, e->starts,
                                       e->ends, e->n_windows);
        }
      mg_line_figures_finish (figures);
      runs[r] = (g_get_monotonic_time () - t0) / 1000.0;
      n_lines = mg_line_figures_get_n_lines (figures);
    }
  qsort (runs, G_N_ELEMENTS (runs), sizeof *runs, compare);
  g_print ("%u stacks, %u window counts, %u frames, %u lines with samples in file_0.c\n",
           n_stacks, n_counts, at, n_lines);
  g_print ("line figures:            %8.1f ms median (goal: views within 100 ms)\n",
           runs[G_N_ELEMENTS (runs) / 2]);
  g_array_unref (entries);
  g_free (frames);
  g_rand_free (rand);
  return 0;
}
