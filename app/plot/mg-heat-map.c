/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rank overview's grid and picture (mg-heat-map.h). */
#include "mg-heat-map.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mg-series-view.h"

#include <glib/gi18n.h>

struct _MgHeatSource
{
  guint metric;
  guint n;
  guint *processes;
  MgProcessSeries **series;  /* n = 0: none */
  MgSeriesView *views;       /* on series; n = 0: none */
};

MgHeatSource *
mg_heat_source_new (MgProfile *profile, guint metric, const guint *processes, guint n_processes,
                    GCancellable *cancellable, GError **error)
{
  g_autoptr (MgHeatSource) source = NULL;

  g_return_val_if_fail (MG_IS_PROFILE (profile), NULL);
  if (metric >= mg_profile_get_n_metrics (profile)
      || mg_profile_get_series (profile, metric) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("This metric has no values over time."));
      return NULL;
    }
  source = g_new0 (MgHeatSource, 1);
  source->metric = metric;
  source->n = n_processes;
  source->processes = g_memdup2 (processes, MAX (n_processes, 1) * sizeof (guint));
  source->series = g_new0 (MgProcessSeries *, MAX (n_processes, 1));
  source->views = g_new0 (MgSeriesView, MAX (n_processes, 1));
  for (guint i = 0; i < n_processes; i++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      source->series[i] = mg_profile_dup_process_series (profile, processes[i], metric, error);
      if (source->series[i] == NULL)
        return NULL;
      if (source->series[i]->n > 0)
        mg_series_view_init_process (&source->views[i], source->series[i],
                                     mg_profile_get_process (profile, processes[i]),
                                     (int) processes[i]);
    }
  return g_steal_pointer (&source);
}

void
mg_heat_source_free (MgHeatSource *source)
{
  if (source == NULL)
    return;
  for (guint i = 0; i < source->n; i++)
    g_free (source->series[i]);
  g_free (source->series);
  g_free (source->views);
  g_free (source->processes);
  g_free (source);
}

guint
mg_heat_source_get_metric (const MgHeatSource *source)
{
  return source->metric;
}

/* The cells' statistic: the one the sort names. */
typedef enum { STAT_MEAN, STAT_MAX, STAT_MIN } Stat;

static Stat
stat_of_sort (MgHeatSort sort)
{
  return sort == MG_HEAT_SORT_MAX ? STAT_MAX : sort == MG_HEAT_SORT_MIN ? STAT_MIN : STAT_MEAN;
}

/* Scratch of one row: per column the weighted sum and its weight (mean)
 * or the extreme so far (weight 0: nothing yet). */
typedef struct {
  double *sum;
  double *weight;
} RowScratch;

/* A row's figures being gathered: time-weighted mean, max, min. */
typedef struct {
  double sum, weight, hi, lo;
} Figures;

static inline void
figures_add (Figures *f, double mean, double max, double min, double w)
{
  if (!isnan (mean))
    {
      f->sum += mean * w;
      f->weight += w;
    }
  if (max > f->hi) /* false for NaN */
    f->hi = max;
  if (min < f->lo)
    f->lo = min;
}

static void
figures_done (const Figures *f, double *mean, double *max, double *min)
{
  *mean = f->weight > 0 ? f->sum / f->weight : NAN;
  *max = isinf (f->hi) ? NAN : f->hi;
  *min = isinf (f->lo) ? NAN : f->lo;
}

static inline double
window_start (const MgSeriesView *view, guint i)
{
  if (view->starts != NULL)
    return view->starts[i];
  return i == 0 ? view->first_start : view->ends[i - 1];
}

static inline void
cell_add (RowScratch *scratch, int c, Stat stat, double v, double w)
{
  if (stat == STAT_MEAN)
    scratch->sum[c] += v * w;
  else if (scratch->weight[c] == 0
           || (stat == STAT_MAX ? v > scratch->sum[c] : v < scratch->sum[c]))
    scratch->sum[c] = v;
  scratch->weight[c] += w;
}

/* The row's cells; with figures (the figures' range is the columns'),
 * its figures too, in the same pass. The windows' values are the
 * statistic's; most windows fall in one column and take the short way. */
static void
fill_row (const MgSeriesView *view, const MgHeatMap *map, Stat stat, RowScratch *scratch,
          float *row, Figures *figures)
{
  guint n = map->n_columns;
  double dt = (map->t1 - map->t0) / n, inv_dt = n / (map->t1 - map->t0);
  const double *values = stat == STAT_MAX ? view->maxs
                         : stat == STAT_MIN ? view->mins : view->means;

  memset (scratch->sum, 0, n * sizeof (double));
  memset (scratch->weight, 0, n * sizeof (double));
  for (guint i = mg_series_view_find (view, map->t0); i < view->n; i++)
    {
      double start = window_start (view, i), end = view->ends[i];
      double s, e, v = values[i], x0, x1;
      int c0, c1;

      if (start >= map->t1)
        break;
      s = MAX (start, map->t0);
      e = MIN (end, map->t1);
      if (figures != NULL)
        figures_add (figures, view->means[i], view->maxs[i], view->mins[i],
                     MAX (e - s, dt * 1e-9));
      if (isnan (v))
        continue;
      /* Both >= 0: a cast is floor, and ceil is a cast and a compare. */
      x0 = (s - map->t0) * inv_dt;
      x1 = (e - map->t0) * inv_dt;
      c0 = MIN ((int) x0, (int) n - 1);
      c1 = (int) x1;
      c1 = CLAMP (c1 - (x1 <= c1), c0, (int) n - 1);
      if (c0 == c1)
        {
          cell_add (scratch, c0, stat, v, MAX (e - s, dt * 1e-9));
          continue;
        }
      for (int c = c0; c <= c1; c++)
        {
          /* A column's weight is how much of it the window covers. */
          double cs = map->t0 + c * dt, overlap = MIN (e, cs + dt) - MAX (s, cs);

          /* Only touching the column (rounding at its edge) is not in it. */
          if (overlap <= dt * 1e-6)
            continue;
          cell_add (scratch, c, stat, v, overlap);
        }
    }
  for (guint c = 0; c < n; c++)
    if (scratch->weight[c] == 0)
      row[c] = NAN;
    else
      row[c] = stat == STAT_MEAN ? scratch->sum[c] / scratch->weight[c] : scratch->sum[c];
}

/* Mean (time-weighted), max and min of the windows overlapping [f0, f1]. */
static void
row_figures (const MgSeriesView *view, double f0, double f1, Figures *figures)
{
  for (guint i = mg_series_view_find (view, f0); i < view->n; i++)
    {
      double start = window_start (view, i), end = view->ends[i];

      if (start >= f1)
        break;
      figures_add (figures, view->means[i], view->maxs[i], view->mins[i],
                   MAX (MIN (end, f1) - MAX (start, f0), (f1 - f0) * 1e-9));
    }
}

typedef struct {
  double key;
  guint index;
} SortKey;

static int
compare_keys (const void *a, const void *b)
{
  const SortKey *x = a, *y = b;

  /* Rows without a value last; then the key; ties by the given order. */
  if (isnan (x->key) != isnan (y->key))
    return isnan (x->key) ? 1 : -1;
  if (!isnan (x->key) && x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The display order of the given rows: order[i] = given row shown i-th. */
static void
sort_rows (MgHeatSort sort, guint n, const double *means, const double *maxs, const double *mins,
           const guint *given, guint *order)
{
  g_autofree SortKey *keys = g_new (SortKey, n);

  for (guint i = 0; i < n; i++)
    {
      keys[i].index = given[i];
      switch (sort)
        {
        case MG_HEAT_SORT_MEAN: keys[i].key = -means[i]; break;
        case MG_HEAT_SORT_MAX: keys[i].key = -maxs[i]; break;
        case MG_HEAT_SORT_MIN: keys[i].key = mins[i]; break;
        case MG_HEAT_SORT_PROCESS:
        default: keys[i].key = 0; break;
        }
    }
  qsort (keys, n, sizeof *keys, compare_keys);
  /* keys[].index is the given position; order wants the current row. */
  {
    g_autofree guint *row_of_given = g_new (guint, MAX (n, 1));

    for (guint i = 0; i < n; i++)
      row_of_given[given[i]] = i;
    for (guint i = 0; i < n; i++)
      order[i] = row_of_given[keys[i].index];
  }
}

static void apply_permutation (MgHeatMap *map, const guint *order);

/* Puts the rows (cells and figures) in display order. */
static void
apply_order (MgHeatMap *map, const guint *order)
{
  gboolean identity = TRUE;

  /* Rank order, or an order that did not change: nothing to move. */
  for (guint i = 0; i < map->n_rows && identity; i++)
    identity = order[i] == i;
  if (identity)
    return;
  apply_permutation (map, order);
}

static void
apply_permutation (MgHeatMap *map, const guint *order)
{
  gsize row_bytes = (gsize) map->n_columns * sizeof (float);
  g_autofree float *cells = g_malloc (row_bytes * map->n_rows);
  g_autofree guint *processes = g_new (guint, map->n_rows);
  g_autofree guint *given = g_new (guint, map->n_rows);
  g_autofree double *figures = g_new (double, 3 * (gsize) map->n_rows);

  for (guint i = 0; i < map->n_rows; i++)
    {
      memcpy (cells + (gsize) i * map->n_columns, map->cells + (gsize) order[i] * map->n_columns,
              row_bytes);
      processes[i] = map->processes[order[i]];
      given[i] = map->given[order[i]];
      figures[i] = map->row_means[order[i]];
      figures[map->n_rows + i] = map->row_maxs[order[i]];
      figures[2 * map->n_rows + i] = map->row_mins[order[i]];
    }
  memcpy (map->cells, cells, row_bytes * map->n_rows);
  memcpy (map->processes, processes, map->n_rows * sizeof (guint));
  memcpy (map->given, given, map->n_rows * sizeof (guint));
  memcpy (map->row_means, figures, map->n_rows * sizeof (double));
  memcpy (map->row_maxs, figures + map->n_rows, map->n_rows * sizeof (double));
  memcpy (map->row_mins, figures + 2 * map->n_rows, map->n_rows * sizeof (double));
}

static void
find_scale (MgHeatMap *map)
{
  float lo = INFINITY, hi = -INFINITY;
  gsize n = (gsize) map->n_rows * map->n_columns;

  for (gsize i = 0; i < n; i++)
    if (!isnan (map->cells[i]))
      {
        lo = MIN (lo, map->cells[i]);
        hi = MAX (hi, map->cells[i]);
      }
  map->lo = isinf (lo) ? NAN : lo;
  map->hi = isinf (hi) ? NAN : hi;
}

/* Rows [r0, r1) of the grid, on one thread. */
typedef struct {
  MgHeatMap *map;
  const MgSeriesView *views; /* n = 0: the process has no series */
  Stat stat;
  guint r0, r1;
} RowsJob;

static gpointer
fill_rows_job (gpointer data)
{
  RowsJob *job = data;
  MgHeatMap *map = job->map;
  guint n_columns = map->n_columns;
  gboolean same_range = map->f0 == map->t0 && map->f1 == map->t1;
  RowScratch scratch = { g_new (double, n_columns), g_new (double, n_columns) };

  for (guint r = job->r0; r < job->r1; r++)
    {
      const MgSeriesView *view = &job->views[r];
      float *row = map->cells + (gsize) r * n_columns;
      Figures figures = { 0, 0, -INFINITY, INFINITY };

      if (view->n == 0)
        {
          for (guint c = 0; c < n_columns; c++)
            row[c] = NAN;
        }
      else
        {
          fill_row (view, map, job->stat, &scratch, row, same_range ? &figures : NULL);
          if (!same_range)
            row_figures (view, map->f0, map->f1, &figures);
        }
      figures_done (&figures, &map->row_means[r], &map->row_maxs[r], &map->row_mins[r]);
    }
  g_free (scratch.sum);
  g_free (scratch.weight);
  return NULL;
}

/* Below this many windows and cells, one thread does it all. */
#define PARALLEL_WORK (256 * 1024)
#define MAX_THREADS 8

/* The rows are independent: large grids are split between threads,
 * which read the source's copies only. */
static void
fill_rows (MgHeatMap *map, const MgHeatSource *source, Stat stat)
{
  RowsJob jobs[MAX_THREADS];
  GThread *threads[MAX_THREADS] = { NULL };
  guint64 work = 0;
  guint n_threads;

  for (guint r = 0; r < map->n_rows; r++)
    work += source->views[r].n + map->n_columns;
  n_threads = work < PARALLEL_WORK ? 1 : CLAMP (g_get_num_processors (), 1, MAX_THREADS);
  n_threads = MIN (n_threads, MAX (map->n_rows, 1));
  for (guint i = 0; i < n_threads; i++)
    {
      jobs[i] = (RowsJob) { map, source->views, stat,
                            (guint) ((guint64) map->n_rows * i / n_threads),
                            (guint) ((guint64) map->n_rows * (i + 1) / n_threads) };
      if (i > 0)
        threads[i] = g_thread_try_new ("mg-heat-map", fill_rows_job, &jobs[i], NULL);
    }
  fill_rows_job (&jobs[0]);
  for (guint i = 1; i < n_threads; i++)
    if (threads[i] != NULL)
      g_thread_join (threads[i]);
    else
      fill_rows_job (&jobs[i]); /* no thread to be had: here */
}

MgHeatMap *
mg_heat_map_new (const MgHeatSource *source, double t0, double t1, guint n_columns, double f0,
                 double f1, MgHeatSort sort)
{
  MgHeatMap *map;
  g_autofree guint *order = NULL;
  Stat stat = stat_of_sort (sort);
  guint n_processes;

  g_return_val_if_fail (source != NULL, NULL);
  n_processes = source->n;
  n_columns = MAX (n_columns, 1);
  if (!(t1 > t0))
    t1 = t0 + 1e-9;
  if (!(f1 > f0))
    f1 = f0 + 1e-9;

  map = g_new0 (MgHeatMap, 1);
  map->n_rows = n_processes;
  map->n_columns = n_columns;
  map->t0 = t0;
  map->t1 = t1;
  map->f0 = f0;
  map->f1 = f1;
  map->sort = sort;
  map->processes = g_memdup2 (source->processes, MAX (n_processes, 1) * sizeof (guint));
  map->given = g_new (guint, MAX (n_processes, 1));
  for (guint r = 0; r < n_processes; r++)
    map->given[r] = r;
  map->cells = g_new (float, MAX ((gsize) n_processes * n_columns, 1));
  map->row_means = g_new (double, MAX (n_processes, 1));
  map->row_maxs = g_new (double, MAX (n_processes, 1));
  map->row_mins = g_new (double, MAX (n_processes, 1));
  fill_rows (map, source, stat);

  order = g_new (guint, MAX (n_processes, 1));
  sort_rows (sort, n_processes, map->row_means, map->row_maxs, map->row_mins, map->given, order);
  apply_order (map, order);
  find_scale (map);
  return map;
}

void
mg_heat_map_set_figures_range (MgHeatMap *map, const MgHeatSource *source, double f0, double f1)
{
  g_autofree guint *order = g_new (guint, MAX (map->n_rows, 1));

  g_return_if_fail (source != NULL && source->n == map->n_rows);
  if (!(f1 > f0))
    f1 = f0 + 1e-9;
  map->f0 = f0;
  map->f1 = f1;
  for (guint r = 0; r < map->n_rows; r++)
    {
      const MgSeriesView *view = &source->views[map->given[r]];
      Figures figures = { 0, 0, -INFINITY, INFINITY };

      if (view->n > 0)
        row_figures (view, f0, f1, &figures);
      figures_done (&figures, &map->row_means[r], &map->row_maxs[r], &map->row_mins[r]);
    }
  sort_rows (map->sort, map->n_rows, map->row_means, map->row_maxs, map->row_mins, map->given,
             order);
  apply_order (map, order);
}

void
mg_heat_map_free (MgHeatMap *map)
{
  if (map == NULL)
    return;
  g_free (map->processes);
  g_free (map->given);
  g_free (map->cells);
  g_free (map->row_means);
  g_free (map->row_maxs);
  g_free (map->row_mins);
  g_free (map);
}

double
mg_heat_map_get (const MgHeatMap *map, guint row, guint column)
{
  if (row >= map->n_rows || column >= map->n_columns)
    return NAN;
  return map->cells[(gsize) row * map->n_columns + column];
}

int
mg_heat_map_row_of_process (const MgHeatMap *map, guint process)
{
  for (guint r = 0; r < map->n_rows; r++)
    if (map->processes[r] == process)
      return (int) r;
  return -1;
}

guint
mg_heat_map_row_at (const MgHeatMap *map, int y, int height)
{
  if (map->n_rows == 0 || height <= 0)
    return 0;
  y = CLAMP (y, 0, height - 1);
  return (guint) ((guint64) y * map->n_rows / (guint) height);
}

guint
mg_heat_map_column_at (const MgHeatMap *map, double t)
{
  double c = floor ((t - map->t0) / (map->t1 - map->t0) * map->n_columns);

  return (guint) CLAMP (c, 0, (double) map->n_columns - 1);
}

/* The ramp's stops, cold to hot: a blue-violet through teal and green to
 * yellow, whose lightness rises all along, so that the order of values
 * reads the same in light and dark themes and in grey. */
static const guint32 ramp[] = {
  MG_HEAT_COLD, 0x3b528b, 0x21918c, 0x5ec962, MG_HEAT_HOT,
};

void
mg_heat_map_colour (double fraction, guint8 rgb[3])
{
  double x, f;
  guint i;

  if (isnan (fraction))
    fraction = 0;
  x = CLAMP (fraction, 0, 1) * (G_N_ELEMENTS (ramp) - 1);
  i = MIN ((guint) x, G_N_ELEMENTS (ramp) - 2);
  f = x - i;
  for (int k = 0; k < 3; k++)
    {
      int shift = 16 - 8 * k;
      double a = (ramp[i] >> shift) & 0xff, b = (ramp[i + 1] >> shift) & 0xff;

      rgb[k] = (guint8) lround (a + (b - a) * f);
    }
}

double
mg_heat_map_fraction (const MgHeatMap *map, double value)
{
  if (isnan (value))
    return NAN;
  if (!(map->hi > map->lo))
    return 0.5;
  return CLAMP ((value - map->lo) / (map->hi - map->lo), 0, 1);
}

#define LUT_SIZE 256

/* Pixel lines [y0, y1) of a picture, on one thread. */
typedef struct {
  const MgHeatMap *map;
  const guint32 *lut;
  guint8 *data;
  int stride, height, y0, y1;
} LinesJob;

static gpointer
render_lines (gpointer data)
{
  LinesJob *job = data;
  const MgHeatMap *map = job->map;
  int width = (int) map->n_columns;
  gboolean low = stat_of_sort (map->sort) == STAT_MIN;
  guint previous_r0 = G_MAXUINT;
  /* mg_heat_map_fraction's scale, as LUT indices. */
  float lo = map->lo, to_lut = map->hi > map->lo ? (LUT_SIZE - 1) / (map->hi - map->lo) : 0;
  /* Rounding; a scale of one value is the ramp's middle. */
  float base = map->hi > map->lo ? 0.5f : (LUT_SIZE - 1) / 2.0f + 0.5f;

  for (int y = job->y0; y < job->y1; y++)
    {
      guint32 *line = (guint32 *) (job->data + (gsize) y * job->stride);
      guint r0, r1;

      if (map->n_rows == 0)
        {
          memset (line, 0, (gsize) width * 4);
          continue;
        }
      r0 = mg_heat_map_row_at (map, y, job->height);
      r1 = MAX (r0 + 1, (guint) ((guint64) (y + 1) * map->n_rows / (guint) job->height));
      r1 = MIN (r1, map->n_rows);
      /* Rows taller than a pixel repeat the line above. */
      if (r1 == r0 + 1 && r0 == previous_r0)
        {
          memcpy (line, job->data + (gsize) (y - 1) * job->stride, (gsize) width * 4);
          continue;
        }
      previous_r0 = r1 == r0 + 1 ? r0 : G_MAXUINT;
      for (int x = 0; x < width; x++)
        {
          float v = NAN;

          for (guint r = r0; r < r1; r++)
            {
              float c = map->cells[(gsize) r * map->n_columns + x];

              if (!isnan (c) && (isnan (v) || (low ? c < v : c > v)))
                v = c;
            }
          if (isnan (v))
            line[x] = 0;
          else
            line[x] = job->lut[CLAMP ((int) ((v - lo) * to_lut + base), 0, LUT_SIZE - 1)];
        }
    }
  return NULL;
}

cairo_surface_t *
mg_heat_map_render (const MgHeatMap *map, int height)
{
  cairo_surface_t *surface;
  guint32 lut[LUT_SIZE];
  LinesJob jobs[MAX_THREADS];
  GThread *threads[MAX_THREADS] = { NULL };
  guint n_threads;
  guint8 *data;
  int stride;

  height = MAX (height, 1);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) map->n_columns, height);
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int i = 0; i < LUT_SIZE; i++)
    {
      guint8 rgb[3];

      mg_heat_map_colour ((double) i / (LUT_SIZE - 1), rgb);
      lut[i] = 0xff000000u | (guint32) rgb[0] << 16 | (guint32) rgb[1] << 8 | rgb[2];
    }
  /* Large pictures are shared between threads by bands of lines. */
  n_threads = (guint64) map->n_columns * (guint) height < PARALLEL_WORK
    ? 1 : CLAMP (g_get_num_processors (), 1, MAX_THREADS);
  n_threads = MIN (n_threads, (guint) height);
  for (guint i = 0; i < n_threads; i++)
    {
      jobs[i] = (LinesJob) { map, lut, data, stride, height,
                             (int) ((guint64) height * i / n_threads),
                             (int) ((guint64) height * (i + 1) / n_threads) };
      if (i > 0)
        threads[i] = g_thread_try_new ("mg-heat-map", render_lines, &jobs[i], NULL);
    }
  render_lines (&jobs[0]);
  for (guint i = 1; i < n_threads; i++)
    if (threads[i] != NULL)
      g_thread_join (threads[i]);
    else
      render_lines (&jobs[i]);
  cairo_surface_mark_dirty (surface);
  return surface;
}

double
mg_heat_map_row_figure (const MgHeatMap *map, guint row)
{
  if (row >= map->n_rows)
    return NAN;
  switch (stat_of_sort (map->sort))
    {
    case STAT_MAX: return map->row_maxs[row];
    case STAT_MIN: return map->row_mins[row];
    case STAT_MEAN:
    default: return map->row_means[row];
    }
}

int
mg_heat_map_extreme_row (const MgHeatMap *map)
{
  gboolean low = stat_of_sort (map->sort) == STAT_MIN;
  int best = -1;

  for (guint r = 0; r < map->n_rows; r++)
    {
      double v = mg_heat_map_row_figure (map, r);

      if (!isnan (v) && (best < 0 || (low ? v < mg_heat_map_row_figure (map, (guint) best)
                                          : v > mg_heat_map_row_figure (map, (guint) best))))
        best = (int) r;
    }
  return best;
}

cairo_surface_t *
mg_heat_map_render_figures (const MgHeatMap *map, int width, int height)
{
  cairo_surface_t *surface;
  guint8 *data;
  int stride;
  gboolean low = stat_of_sort (map->sort) == STAT_MIN;

  width = MAX (width, 1);
  height = MAX (height, 1);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = 0; y < height && map->n_rows > 0; y++)
    {
      guint32 *line = (guint32 *) (data + (gsize) y * stride);
      guint r0 = mg_heat_map_row_at (map, y, height);
      guint r1 = MIN (MAX (r0 + 1, (guint) ((guint64) (y + 1) * map->n_rows / (guint) height)),
                      map->n_rows);
      double v = NAN, f;
      guint8 rgb[3];
      guint32 pixel;
      int length;

      for (guint r = r0; r < r1; r++)
        {
          double c = mg_heat_map_row_figure (map, r);

          if (!isnan (c) && (isnan (v) || (low ? c < v : c > v)))
            v = c;
        }
      if (isnan (v))
        continue;
      f = mg_heat_map_fraction (map, v);
      mg_heat_map_colour (f, rgb);
      pixel = 0xff000000u | (guint32) rgb[0] << 16 | (guint32) rgb[1] << 8 | rgb[2];
      length = CLAMP ((int) lround (1 + f * (width - 1)), 1, width);
      for (int x = 0; x < length; x++)
        line[x] = pixel;
    }
  cairo_surface_mark_dirty (surface);
  return surface;
}
