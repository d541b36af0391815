/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The code views' model on a big selection (issue 30, point 5): 100 000
 * distinct stacks of 8 to 31 frames over 5000 functions, a call tree
 * built with every address named for the first time, then again with the
 * names cached (what a selection change costs), and the flame graph laid
 * out and drawn at 1600 × 600; medians against the goals
 * (100 ms for the views' update, 8 ms for a flame-graph redraw).
 * By hand: <build>/tests/bench/bench-call-tree [STACKS]. */
#include <stdlib.h>

#include "plot/mg-call-tree.h"
#include "plot/mg-flame-graph.h"

#define N_FUNCTIONS 5000

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

int
main (int argc, char **argv)
{
  guint n_stacks = argc > 1 ? (guint) atoi (argv[1]) : 100000;
  Stacks s = make_stacks (n_stacks);
  MgFrameNamer *namer = mg_frame_namer_new (bench_name, NULL, NULL);
  double cached[7], draws[15];

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

  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, 600);
  for (guint r = 0; r < G_N_ELEMENTS (draws); r++)
    {
      cairo_t *cr = cairo_create (surface);
      t0 = g_get_monotonic_time ();
      GArray *boxes = mg_flame_layout (first, MG_CALL_TREE_ROOT, 1.0 / 1600);
      mg_flame_render (cr, first, boxes, 1600, 20, FALSE, "All");
      cairo_surface_flush (surface);
      draws[r] = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_unref (boxes);
      cairo_destroy (cr);
    }
  cairo_surface_destroy (surface);

  g_print ("%u stacks, %u frames, %u functions, %u addresses named\n", n_stacks,
           s.starts[n_stacks], mg_call_tree_get_n_functions (first),
           mg_frame_namer_get_n_named (namer));
  g_print ("call tree, names new:    %8.1f ms\n", first_ms);
  g_print ("call tree, names cached: %8.1f ms median (goal: views within 100 ms)\n",
           median (cached, G_N_ELEMENTS (cached)));
  g_print ("flame graph 1600 x 600:  %8.1f ms median (goal: 8 ms)\n",
           median (draws, G_N_ELEMENTS (draws)));
  mg_call_tree_free (first);
  mg_frame_namer_unref (namer);
  g_free (s.frames);
  g_free (s.starts);
  return 0;
}
