/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The code views' model on a big profile (issue 30, point 5): 100 000
 * distinct stacks of 8 to 31 frames over 5000 functions, spread over 64
 * processes of 4096 windows (16 stacks sampled per window). Timed: a call
 * tree built stack by stack from one selection (what the views did per
 * selection change before the index, names cached); the profile's index
 * (mg-call-index.h: every stack named and placed once); then what a
 * selection change costs now, an index query, for the whole run, a
 * quarter of it, one process and a narrow range; and the flame graph laid
 * out and drawn at 1600 × 600; the rows that follow the selected
 * function, its share over time and its file's line figures, before
 * (read from the stacks' windows) and now (from the index), checked
 * equal. Medians against the goals (100 ms for the views'
 * update, 8 ms for a flame-graph redraw), with a verdict.
 * By hand: <build>/tests/bench/bench-call-tree [STACKS [PROCESSES WINDOWS]]. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plot/mg-call-index.h"
#include "plot/mg-call-tree.h"
#include "plot/mg-flame-graph.h"
#include "plot/mg-function-share.h"
#include "plot/mg-line-figures.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-stack-windows.h"

#define STACKS_PER_WINDOW 16
#define STACKS_PER_PROCESS 3000

#define N_FUNCTIONS 5000
/* Runs of the code before the index, in seconds each: the median of 3. */
#define N_BEFORE 3

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

typedef struct {
  MgStackFrame *frames;
  guint *starts;
  guint n_stacks;
} Stacks;

/* Stacks sharing their outer frames, as real programs' do: a walk down
 * a random path from a few roots. */
static Stacks
make_stacks (guint n_stacks)
{
  Stacks s = { g_new (MgStackFrame, (gsize) n_stacks * 32), g_new (guint, n_stacks + 1),
               n_stacks };
  GRand *rand = g_rand_new_with_seed (30);
  guint at = 0;

  for (guint i = 0; i < n_stacks; i++)
    {
      guint depth = (guint) g_rand_int_range (rand, 8, 32);
      s.starts[i] = at;
      for (guint d = 0; d < depth; d++)
        {
          /* Outer frames from a small pool, inner ones from all. */
          guint pool = d < 11 ? MIN (N_FUNCTIONS, 4u << d) : N_FUNCTIONS;
          guint f = (guint) g_rand_int_range (rand, 0, (gint32) pool);
          s.frames[at + depth - 1 - d] = (MgStackFrame) { 0, ((guint64) f << 8) | 0x11 };
        }
      at += depth;
    }
  s.starts[n_stacks] = at;
  g_rand_free (rand);
  return s;
}

static MgCallTree *
build (MgFrameNamer *namer, const Stacks *s)
{
  MgCallTree *tree = mg_call_tree_new_empty (namer);
  for (guint i = 0; i < s->n_stacks; i++)
    mg_call_tree_add_stack (tree, NULL, s->frames + s->starts[i], s->starts[i + 1] - s->starts[i],
                            1 + i % 7);
  mg_call_tree_finish (tree);
  return tree;
}

/* N_PROCESSES processes of N_WINDOWS windows of 10 ms, each with
 * STACKS_PER_PROCESS stacks of the pool (neighbours overlapping, so that
 * the union is the pool) and STACKS_PER_WINDOW of them in each window. */
static MgProfile *
make_profile (const Stacks *s, guint n_processes, guint n_windows)
{
  MgProfile *profile = mg_profile_new_empty ();
  GVariantBuilder modules, procs;
  GRand *rand = g_rand_new_with_seed (31);
  guint step = MAX (s->n_stacks / n_processes, 1);
  g_autofree double *starts = g_new (double, n_windows);
  g_autofree double *ends = g_new (double, n_windows);

  for (guint w = 0; w < n_windows; w++)
    starts[w] = w * 0.01, ends[w] = (w + 1) * 0.01;
  g_variant_builder_init (&modules, G_VARIANT_TYPE ("a(ayay)"));
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  for (guint p = 0; p < n_processes; p++)
    {
      GVariantBuilder stacks, counts;
      guint n_local = MIN (STACKS_PER_PROCESS, s->n_stacks);
      g_variant_builder_init (&stacks, G_VARIANT_TYPE ("a(a(ut)u)"));
      for (guint j = 0; j < n_local; j++)
        {
          guint i = (p * step + j) % s->n_stacks;
          GVariant *frames = g_variant_new_fixed_array (
            G_VARIANT_TYPE ("(ut)"), s->frames + s->starts[i], s->starts[i + 1] - s->starts[i],
            sizeof (MgStackFrame));
          g_variant_builder_add (&stacks, "(@a(ut)u)", frames, 0u);
        }
      g_variant_builder_init (&counts, G_VARIANT_TYPE ("a(uuu)"));
      for (guint w = 0; w < n_windows; w++)
        for (guint k = 0; k < STACKS_PER_WINDOW; k++)
          g_variant_builder_add (&counts, "(uuu)", w,
                                 (guint32) g_rand_int_range (rand, 0, (gint32) n_local),
                                 (guint32) g_rand_int_range (rand, 1, 4));
      g_variant_builder_add (&procs, "(ittu@a(a(ut)u)@ad@ad@a(uuu))", (gint32) p, (guint64) 0,
                             (guint64) 0, 0u, g_variant_builder_end (&stacks),
                             g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, starts, n_windows,
                                                        sizeof (double)),
                             g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, ends, n_windows,
                                                        sizeof (double)),
                             g_variant_builder_end (&counts));
    }
  g_clear_pointer (&profile->stacks, g_variant_unref);
  profile->stacks = g_variant_ref_sink (g_variant_new ("(@a(ayay)@a(ittua(a(ut)u)adada(uuu)))",
                                                       g_variant_builder_end (&modules),
                                                       g_variant_builder_end (&procs)));
  g_rand_free (rand);
  /* Serialised, as a profile read from a file has it: a builder's tree
   * of 4 million tuples would be serialised by whatever reads it first. */
  g_autoptr (GBytes) bytes = g_variant_get_data_as_bytes (profile->stacks);
  GVariant *flat = g_variant_new_from_bytes (g_variant_get_type (profile->stacks), bytes, TRUE);
  g_variant_unref (profile->stacks);
  profile->stacks = g_variant_ref_sink (flat);
  return profile;
}

static int
compare (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, guint n)
{
  qsort (v, n, sizeof *v, compare);
  return v[n / 2];
}

typedef struct {
  const char *what;
  int process;
  double t0, t1;  /* fractions of the run */
} Query;

static const Query queries[] = {
  { "whole run, all processes", -1, -INFINITY, INFINITY },
  { "a quarter, all processes", -1, 0.25, 0.5 },
  { "whole run, one process", 7, -INFINITY, INFINITY },
  { "1 % of the run, all", -1, 0.5, 0.51 },
};

/* The median of 7 queries with the first levels read, as the views do:
 * the functions table and the flame graph's boxes of a pixel or more. */
static double
time_query (MgCallIndex *index, const Query *q, double run_s, guint64 *total)
{
  double times[7];

  for (guint r = 0; r < G_N_ELEMENTS (times); r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      MgCallTree *tree = mg_call_index_query (index, q->process, q->t0 * run_s, q->t1 * run_s,
                                              NULL);
      for (guint i = 0; i < mg_call_tree_get_n_functions (tree); i++)
        mg_call_tree_get_function (tree, i, NULL, NULL);
      GArray *boxes = mg_flame_layout (tree, MG_CALL_TREE_ROOT, 1.0 / 1600);
      times[r] = (g_get_monotonic_time () - t0) / 1000.0;
      *total = mg_call_tree_get_total (tree);
      g_array_unref (boxes);
      mg_call_tree_free (tree);
    }
  return median (times, G_N_ELEMENTS (times));
}

/* The thread's CPU time in ms: what the work cost on a machine shared
 * with other work, where wall time measures the others too. */
static double
cpu_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The selected function's row over time, before (the stacks' windows
 * read and every stack's frames looked at, names cached) and now (the
 * index's list of the function's stacks): the median of 5 (3 before)
 * over three functions of the outer, middle and inner frames, the worst
 * kept. */
static gboolean
time_share (MgProfile *profile, MgCallIndex *index, MgFrameNamer *namer, guint n_windows,
            double *before, double *after, double *after_cpu)
{
  static const char *const functions[] = { "function_1", "function_40", "function_2500" };
  g_autofree double *starts = g_new (double, n_windows);
  g_autofree double *ends = g_new (double, n_windows);
  MgSeriesView grid = { .n = n_windows, .starts = starts, .ends = ends };
  gboolean same = TRUE;

  for (guint w = 0; w < n_windows; w++)
    starts[w] = w * 0.01, ends[w] = (w + 1) * 0.01;
  *before = *after = *after_cpu = 0;
  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    {
      double old_ms[5], new_ms[5], new_cpu[5];
      g_autofree double *old = NULL, *now = NULL;
      for (guint r = 0; r < G_N_ELEMENTS (new_ms); r++)
        {
          g_clear_pointer (&now, g_free);
          gint64 t0 = g_get_monotonic_time ();
          /* Seconds each before: timed once. */
          if (r < N_BEFORE)
            {
              g_clear_pointer (&old, g_free);
              g_autoptr (MgStackWindows) windows = mg_stack_windows_new (profile, -1);
              g_autoptr (MgStackSet) modules = mg_stack_set_new (profile, -1, 0, 0);
              old = mg_function_share_compute (namer, modules, windows, functions[f], &grid);
              old_ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
            }
          t0 = g_get_monotonic_time ();
          double c0 = cpu_ms ();
          now = mg_call_index_function_share (index, -1, functions[f], &grid);
          new_ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
          new_cpu[r] = cpu_ms () - c0;
        }
      for (guint w = 0; w < n_windows; w++)
        same = same && (isnan (old[w]) ? isnan (now[w]) : fabs (old[w] - now[w]) < 1e-9);
      *before = MAX (*before, median (old_ms, N_BEFORE));
      *after = MAX (*after, median (new_ms, G_N_ELEMENTS (new_ms)));
      *after_cpu = MAX (*after_cpu, median (new_cpu, G_N_ELEMENTS (new_cpu)));
    }
  return same;
}

static gboolean
same_figures (const MgLineFigures *a, const MgLineFigures *b)
{
  if (mg_line_figures_get_total (a) != mg_line_figures_get_total (b)
      || mg_line_figures_get_n_lines (a) != mg_line_figures_get_n_lines (b))
    return FALSE;
  for (guint i = 0; i < mg_line_figures_get_n_lines (a); i++)
    {
      const MgLineFigure *x = mg_line_figures_get_line (a, i), *y = mg_line_figures_get_line (b, i);
      if (x->line != y->line || x->self != y->self || x->total != y->total)
        return FALSE;
      for (guint k = 0; k < mg_line_figures_get_n_bins (a); k++)
        if (x->bins[k] != y->bins[k])
          return FALSE;
    }
  return TRUE;
}

/* The Source tab's figures of file_0.c (the outermost frames' functions:
 * the most stacks pass it) and file_300.c, before and now, for the whole
 * run and a quarter of it; the worst median of 5 (3 before) kept. */
static gboolean
time_lines (MgProfile *profile, MgCallIndex *index, guint n_windows, double *before,
            double *after, double *after_cpu)
{
  static const char *const files[] = { "/src/file_0.c", "/src/file_300.c" };
  double run_s = n_windows * 0.01;
  const double ranges[][2] = { { -INFINITY, INFINITY }, { run_s / 4, run_s / 2 } };
  gboolean same = TRUE;

  *before = *after = *after_cpu = 0;
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    for (guint q = 0; q < G_N_ELEMENTS (ranges); q++)
      {
        double old_ms[5], new_ms[5], new_cpu[5];
        g_autoptr (MgLineFigures) old = NULL;
        for (guint r = 0; r < G_N_ELEMENTS (new_ms); r++)
          {
            gint64 t0 = g_get_monotonic_time ();
            if (r < N_BEFORE)
              {
                g_autoptr (MgStackSet) modules = mg_stack_set_new (profile, -1, 0, 0);
                g_autoptr (MgStackWindows) windows = mg_stack_windows_new (profile, -1);
                g_clear_pointer (&old, mg_line_figures_free);
                old = mg_line_figures_new (files[f], bench_name, NULL, 0, run_s, 28);
                mg_line_figures_add_stack_windows (old, modules, windows, ranges[q][0],
                                                   ranges[q][1]);
                mg_line_figures_finish (old);
                old_ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
              }
            t0 = g_get_monotonic_time ();
            double c0 = cpu_ms ();
            g_autoptr (MgLineFigures) now = mg_line_figures_new (files[f], bench_name, NULL, 0,
                                                                 run_s, 28);
            mg_call_index_add_line_figures (index, now, -1, ranges[q][0], ranges[q][1]);
            mg_line_figures_finish (now);
            new_ms[r] = (g_get_monotonic_time () - t0) / 1000.0;
            new_cpu[r] = cpu_ms () - c0;
            same = same && same_figures (old, now) && mg_line_figures_get_n_lines (now) > 0;
          }
        *before = MAX (*before, median (old_ms, N_BEFORE));
        *after = MAX (*after, median (new_ms, G_N_ELEMENTS (new_ms)));
        *after_cpu = MAX (*after_cpu, median (new_cpu, G_N_ELEMENTS (new_cpu)));
      }
  return same;
}

/* Both rows of the views that follow the selected function, against
 * the views' goal; the load printed, for a machine shared with others. */
static gboolean
follow_function (MgProfile *profile, MgCallIndex *index, MgFrameNamer *namer, guint n_windows)
{
  g_autofree char *load = NULL;
  double before, after, cpu;
  gboolean ok = TRUE;

  if (g_file_get_contents ("/proc/loadavg", &load, NULL, NULL))
    g_print ("load (1, 5, 15 min): %.*s\n", (int) strcspn (load, "\n"), load);
  gboolean same = time_share (profile, index, namer, n_windows, &before, &after, &cpu);
  g_print ("function share over time: %8.1f ms before (stacks' windows), %6.1f ms now "
           "(index; %.1f ms of CPU), worst median; values %s (goal: 100 ms): %s\n", before,
           after, cpu, same ? "the same" : "DIFFER", after <= 100 && same ? "met" : "NOT MET");
  ok = ok && same && after <= 100;
  same = time_lines (profile, index, n_windows, &before, &after, &cpu);
  g_print ("source line figures:      %8.1f ms before (stacks' windows), %6.1f ms now "
           "(index; %.1f ms of CPU), worst median; figures %s (goal: 100 ms): %s\n", before,
           after, cpu, same ? "the same" : "DIFFER", after <= 100 && same ? "met" : "NOT MET");
  return ok && same && after <= 100;
}

int
main (int argc, char **argv)
{
  guint n_stacks = argc > 1 ? (guint) atoi (argv[1]) : 100000;
  guint n_processes = argc > 3 ? (guint) atoi (argv[2]) : 64;
  guint n_windows = argc > 3 ? (guint) atoi (argv[3]) : 4096;
  Stacks s = make_stacks (n_stacks);
  MgFrameNamer *namer = mg_frame_namer_new (bench_name, NULL, NULL);
  double cached[3], draws[15], worst = 0;
  gboolean ok = TRUE;

  gint64 t0 = g_get_monotonic_time ();
  MgCallTree *first = build (namer, &s);
  double first_ms = (g_get_monotonic_time () - t0) / 1000.0;
  for (guint r = 0; r < G_N_ELEMENTS (cached); r++)
    {
      t0 = g_get_monotonic_time ();
      MgCallTree *tree = build (namer, &s);
      cached[r] = (g_get_monotonic_time () - t0) / 1000.0;
      mg_call_tree_free (tree);
    }
  g_print ("%u stacks, %u frames, %u functions, %u addresses named\n", n_stacks,
           s.starts[n_stacks], mg_call_tree_get_n_functions (first),
           mg_frame_namer_get_n_named (namer));
  g_print ("call tree stack by stack, names new:    %8.1f ms\n", first_ms);
  g_print ("call tree stack by stack, names cached: %8.1f ms median (before the index, "
           "per selection change)\n", median (cached, G_N_ELEMENTS (cached)));

  g_autoptr (MgProfile) profile = make_profile (&s, n_processes, n_windows);
  MgFrameNamer *fresh = mg_frame_namer_new (bench_name, NULL, NULL);
  t0 = g_get_monotonic_time ();
  MgCallIndex *index = mg_call_index_new (fresh, profile);
  double index_ms = (g_get_monotonic_time () - t0) / 1000.0;
  g_print ("%u processes x %u windows x %u stacks sampled: %u distinct stacks, %u nodes down, "
           "%u up\n", n_processes, n_windows, STACKS_PER_WINDOW, mg_call_index_get_n_stacks (index),
           mg_call_index_get_n_nodes (index, MG_CALL_TREE_TOP_DOWN),
           mg_call_index_get_n_nodes (index, MG_CALL_TREE_BOTTOM_UP));
  g_print ("index (once per profile, names new): %8.1f ms\n", index_ms);
  for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
    {
      guint64 total;
      double ms = time_query (index, &queries[q], n_windows * 0.01, &total);
      worst = MAX (worst, ms);
      g_print ("selection change, %-26s %8.1f ms median (%" G_GUINT64_FORMAT " samples)\n",
               queries[q].what, ms, total);
    }
  g_print ("selection change, worst: %.1f ms (goal: views within 100 ms): %s\n", worst,
           worst <= 100 ? "met" : "NOT MET");
  ok = ok && worst <= 100;

  ok = follow_function (profile, index, fresh, n_windows) && ok;

  MgCallTree *whole = mg_call_index_query (index, -1, -INFINITY, INFINITY, NULL);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, 600);
  for (guint r = 0; r < G_N_ELEMENTS (draws); r++)
    {
      cairo_t *cr = cairo_create (surface);
      t0 = g_get_monotonic_time ();
      GArray *boxes = mg_flame_layout (whole, MG_CALL_TREE_ROOT, 1.0 / 1600);
      mg_flame_render (cr, whole, boxes, 1600, 20, FALSE, "All");
      cairo_surface_flush (surface);
      draws[r] = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_unref (boxes);
      cairo_destroy (cr);
    }
  cairo_surface_destroy (surface);
  double draw = median (draws, G_N_ELEMENTS (draws));
  g_print ("flame graph 1600 x 600 redraw: %8.1f ms median (goal: 8 ms): %s\n", draw,
           draw <= 8 ? "met" : "NOT MET");
  ok = ok && draw <= 8;
  g_print ("verdict: %s\n", ok ? "every goal met" : "a goal is not met");

  mg_call_tree_free (whole);
  mg_call_index_unref (index);
  mg_frame_namer_unref (fresh);
  mg_call_tree_free (first);
  mg_frame_namer_unref (namer);
  g_free (s.frames);
  g_free (s.starts);
  return 0;
}
