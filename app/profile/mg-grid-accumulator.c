/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The common grid and the accumulator of one process's samples on it. */
#include "mg-config.h"

#include <math.h>

#include "mg-grid-accumulator.h"

/* Windows from..n-1 emptied. */
static void
grid_acc_reset (MgGridAcc *acc, guint from, guint n)
{
  for (guint w = from; w < n; w++)
    {
      acc->weight[w] = acc->wmean[w] = acc->points[w] = acc->pmean[w] = 0.0;
      acc->min[w] = INFINITY;
      acc->max[w] = -INFINITY;
    }
}

guint
mg_grid_clamp (const MgGrid *grid, double index)
{
  if (!(index > 0.0))
    return 0;
  if (index >= grid->n)
    return grid->n - 1;
  return (guint) index;
}

typedef void (*WindowVisit) (gpointer data, guint32 w, double overlap);

/* The windows from..n-1 (those before are left alone) that the sample
 * (a, b] overlaps with a positive length, with that length; for an
 * instant (b <= a), the window (start, end] that holds b, with 0. */
static void
sample_windows (const MgGrid *grid, guint from, double a, double b, WindowVisit visit,
                gpointer data)
{
  double scale = grid->scale;

  if (grid->n == 0)
    return;
  if (!(b > a))
    {
      guint w = mg_grid_clamp (grid, ceil (b * scale) - 1.0);

      if (w >= from)
        visit (data, w, 0.0);
      return;
    }
  for (guint w = MAX (mg_grid_clamp (grid, floor (a * scale)), from);
       w <= mg_grid_clamp (grid, ceil (b * scale) - 1.0); w++)
    {
      double overlap = MIN (b, grid->ends[w]) - MAX (a, grid->starts[w]);

      if (overlap > 0.0)
        visit (data, w, overlap);
    }
}

/* Windows the sample (a, b] can touch, at most. */
static gsize
sample_reach (const MgGrid *grid, double a, double b)
{
  guint lo = mg_grid_clamp (grid, floor (a * grid->scale));
  guint hi = mg_grid_clamp (grid, ceil (b * grid->scale) - 1.0);

  return !(b > a) ? 1 : hi >= lo ? hi - lo + 1 : 0;
}

typedef struct {
  MgBuilderProcess *process;
  gsize len;
} SpanFill;

static void
span_push (gpointer data, guint32 w, double overlap)
{
  SpanFill *fill = data;

  fill->process->span_w[fill->len] = w;
  fill->process->span_overlap[fill->len] = overlap;
  fill->len++;
}

/* Where each of the process's samples falls on windows from..n-1
 * (sample_windows ()): every metric of the process spreads its values
 * through this one span instead of finding the windows again. Samples
 * that overlap each other (a damaged record) could make it as large as
 * samples × windows: then none is made, and each metric finds the
 * windows itself. */
void
mg_grid_span_build (MgBuilderProcess *p, const MgGrid *grid, guint from)
{
  SpanFill fill = { p, 0 };
  gsize room = 0;

  p->span_end = g_new0 (guint32, MAX (p->n, 1));
  if (grid->n == 0)
    return;
  for (gsize k = 0; k < p->n; k++)
    room += sample_reach (grid, p->starts[k], p->ends[k]);
  /* Samples one after another touch at most n + windows. */
  if (room > 2 * (p->n + grid->n))
    {
      g_clear_pointer (&p->span_end, g_free);
      return;
    }
  p->span_w = g_new (guint32, MAX (room, 1));
  p->span_overlap = g_new (double, MAX (room, 1));
  for (gsize k = 0; k < p->n; k++)
    {
      sample_windows (grid, from, p->starts[k], p->ends[k], span_push, &fill);
      p->span_end[k] = (guint32) fill.len;
    }
}

/* Window w's share (overlap; 0: an instant in it) of a sample's values. */
static inline void
grid_acc_put (MgGridAcc *acc, guint32 w, double overlap, double min, double max, double mean)
{
  if (!isnan (mean))
    {
      if (overlap > 0.0)
        {
          acc->weight[w] += overlap;
          acc->wmean[w] += overlap * mean;
        }
      else
        {
          acc->points[w] += 1.0;
          acc->pmean[w] += mean;
        }
    }
  if (!isnan (min))
    acc->min[w] = MIN (acc->min[w], min);
  if (!isnan (max))
    acc->max[w] = MAX (acc->max[w], max);
}

typedef struct {
  MgGridAcc *acc;
  double min, max, mean;
} SampleValues;

static void
put_visit (gpointer data, guint32 w, double overlap)
{
  SampleValues *v = data;

  grid_acc_put (v->acc, w, overlap, v->min, v->max, v->mean);
}

/* Adds sample k of the process to windows from..n-1: through its span, or
 * finding them when it has none. */
static void
grid_acc_add (MgGridAcc *acc, const MgGrid *grid, guint from, const MgBuilderProcess *p, gsize k,
              double min, double max, double mean)
{
  SampleValues v = { acc, min, max, mean };

  if (p->span_end == NULL)
    {
      sample_windows (grid, from, p->starts[k], p->ends[k], put_visit, &v);
      return;
    }
  for (guint32 e = k > 0 ? p->span_end[k - 1] : 0; e < p->span_end[k]; e++)
    grid_acc_put (acc, p->span_w[e], p->span_overlap[e], min, max, mean);
}

/* A sparse metric's sample k (its source reports at its own times: a
 * Score-P ASYNC plugin, a SYNC one with delta_t, MAP's <sparse>): one
 * reading, put into the one window that holds the sample's end, never
 * spread over the windows the sample overlaps, so that each reading is
 * exported once; the windows between readings stay gaps. */
static void
grid_acc_add_reading (MgGridAcc *acc, const MgGrid *grid, guint from, const MgBuilderProcess *p,
                      gsize k, double min, double max, double mean)
{
  SampleValues v = { acc, min, max, mean };

  if (isnan (mean) && isnan (min) && isnan (max))
    return;
  sample_windows (grid, from, p->ends[k], p->ends[k], put_visit, &v);
}

/* The first of the process's samples that can reach window `from` of a
 * stable grid: those ending a window before it or earlier touch no window
 * from it on (its bounds are exact multiples of the width). */
static gsize
first_sample_from (const MgBuilderProcess *process, const MgGrid *grid, guint from)
{
  double cut;
  gsize lo = 0, hi = process->n;

  if (from < 2 || grid->width == 0.0 || !process->sorted)
    return 0;
  cut = grid->starts[from - 1];
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (process->ends[mid] <= cut)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* A stable grid's window width: the smallest power of two (s) that makes
 * at most max windows up to end. */
double
mg_grid_stable_width (double end, guint max)
{
  double lower = end / max;
  int e;

  frexp (lower, &e);   /* 2^(e-1) <= lower < 2^e */
  return ldexp (1.0, e - 1) >= lower ? ldexp (1.0, e - 1) : ldexp (1.0, e);
}

void
mg_grid_lay (MgGrid *grid, guint n_windows, double end, double width, double *starts)
{
  double *ends = starts + n_windows;

  for (guint w = 0; w < n_windows; w++)
    {
      starts[w] = width > 0.0 ? w * width : end * w / n_windows;
      ends[w] = w + 1 == n_windows ? end : width > 0.0 ? (w + 1) * width : end * (w + 1) / n_windows;
    }
  *grid = (MgGrid) { n_windows, end, starts, ends, width > 0.0 ? 1.0 / width : n_windows / end,
                     width };
}

void
mg_grid_acc_fill (MgGridAcc *acc, const MgGrid *grid, guint from, const MgBuilderProcess *process,
                  const double *row, gboolean sparse)
{
  gsize n_samples = process->n;

  grid_acc_reset (acc, from, grid->n);
  for (gsize k = first_sample_from (process, grid, from); k < n_samples; k++)
    if (sparse)
      grid_acc_add_reading (acc, grid, from, process, k, row[k], row[n_samples + k],
                            row[2 * n_samples + k]);
    else
      grid_acc_add (acc, grid, from, process, k, row[k], row[n_samples + k],
                    row[2 * n_samples + k]);
}
