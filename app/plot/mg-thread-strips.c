/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A process's threads as strips of activity over time. */
#include "mg-config.h"

#include "mg-thread-strips.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "profile/mg-profile-threads.h"
#include "profile/mg-stack-set.h"
#include "profile/mg-stack-windows.h"

typedef struct {
  double start, end;
  double counts[MG_THREAD_N_CLASSES]; /* samples, of the classes a stack row knows */
} Window;

typedef struct {
  int ordinal;
  gboolean activity; /* classes from the main-thread activity series */
  GArray *windows;   /* Window, in time order (stack rows only) */
} Row;

struct _MgThreadStrips {
  MgProfile *profile;
  int process;
  GArray *rows; /* Row */
  MgActivitySeries main_series;
};

static void
row_clear (gpointer data)
{
  Row *row = data;

  g_clear_pointer (&row->windows, g_array_unref);
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The distinct windows of the counts, by start: the process's own. */
static GArray *
window_grid (const MgStackWindows *sw, GHashTable **index)
{
  GArray *grid = g_array_new (FALSE, FALSE, sizeof (double) * 2);
  GHashTable *seen = g_hash_table_new_full (g_double_hash, g_double_equal, g_free, NULL);

  for (guint i = 0; i < mg_stack_windows_get_n_counts (sw); i++)
    {
      const MgStackWindowCount *c = mg_stack_windows_get_count (sw, i);
      double w[2] = { c->start_s, c->end_s };

      if (g_hash_table_contains (seen, &c->start_s))
        continue;
      g_hash_table_add (seen, g_memdup2 (&c->start_s, sizeof (double)));
      g_array_append_vals (grid, w, 1);
    }
  g_array_sort (grid, compare_double);
  g_hash_table_remove_all (seen);
  for (guint i = 0; i < grid->len; i++)
    g_hash_table_insert (seen, g_memdup2 (&g_array_index (grid, double, 2 * i), sizeof (double)),
                         GUINT_TO_POINTER (i));
  *index = seen;
  return grid;
}

/* Samples a thread takes in span when it is on a CPU or in MPI throughout:
 * one per interval (at least one: merged windows keep their counts). */
static double
expected_samples (double span, double interval_s)
{
  return interval_s > 0 ? MAX (1, round (span / interval_s)) : 1;
}

static void
append_window (GArray *windows, double start, double end, double computing, double mpi,
               double interval_s)
{
  Window w = { start, end, { 0 } };

  w.counts[MG_THREAD_COMPUTING] = computing;
  w.counts[MG_THREAD_MPI] = mpi;
  w.counts[MG_THREAD_OFF_CPU] = MAX (0, expected_samples (end - start, interval_s) - computing - mpi);
  g_array_append_val (windows, w);
}

/* A thread's windows from its first sample to its last; the gaps between
 * the process's windows (no thread sampled) are off CPU too. */
static GArray *
thread_windows (const GArray *grid, const double *counts, double interval_s)
{
  GArray *windows = g_array_new (FALSE, FALSE, sizeof (Window));
  guint first = grid->len, last = 0;

  for (guint i = 0; i < grid->len; i++)
    if (counts[2 * i] + counts[2 * i + 1] > 0)
      {
        first = MIN (first, i);
        last = i;
      }
  for (guint i = first; i < grid->len && i <= last; i++)
    {
      const double *w = &g_array_index (grid, double, 2 * i);

      append_window (windows, w[0], w[1], counts[2 * i], counts[2 * i + 1], interval_s);
      if (i < last)
        {
          double next = g_array_index (grid, double, 2 * (i + 1));

          if (next > w[1] + 1e-9)
            append_window (windows, w[1], next, 0, 0, interval_s);
        }
    }
  return windows;
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  return ((const Row *) a)->ordinal - ((const Row *) b)->ordinal;
}

static void
add_stack_rows (MgThreadStrips *self)
{
  g_autoptr (MgStackWindows) sw = mg_stack_windows_new (self->profile, self->process);
  g_autoptr (GHashTable) index = NULL;
  g_autoptr (GArray) grid = window_grid (sw, &index);
  /* ordinal → counts per grid window, (computing, MPI) pairs */
  g_autoptr (GHashTable) threads = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  const MgRunInfo *run = mg_profile_get_run_info (self->profile);
  double interval_s = run->interval_end_ms / 1000.0;
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < mg_stack_windows_get_n_counts (sw); i++)
    {
      const MgStackWindowCount *c = mg_stack_windows_get_count (sw, i);
      guint32 flags = mg_stack_windows_get_flags (sw, c->stack);
      guint thread = flags >> MG_STACK_THREAD_SHIFT;
      guint w = GPOINTER_TO_UINT (g_hash_table_lookup (index, &c->start_s));
      double *counts;

      /* 0: the thread is not known (records from before). */
      if (thread == 0)
        continue;
      counts = g_hash_table_lookup (threads, GUINT_TO_POINTER (thread));
      if (counts == NULL)
        {
          counts = g_new0 (double, 2 * MAX (grid->len, 1));
          g_hash_table_insert (threads, GUINT_TO_POINTER (thread), counts);
        }
      counts[2 * w + ((flags & MG_STACK_MPI) != 0)] += (double) c->count;
    }
  g_hash_table_iter_init (&iter, threads);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Row row = { (int) GPOINTER_TO_UINT (key) - 1, FALSE, NULL };

      if (row.ordinal == MG_STACK_THREAD_MAIN && self->rows->len > 0)
        continue; /* the activity series already stand for it */
      row.windows = thread_windows (grid, value, interval_s);
      g_array_append_val (self->rows, row);
    }
}

MgThreadStrips *
mg_thread_strips_new (MgProfile *profile, int process)
{
  MgThreadStrips *self;

  g_return_val_if_fail (MG_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (process >= 0, NULL);
  self = g_new0 (MgThreadStrips, 1);
  self->profile = g_object_ref (profile);
  self->process = process;
  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, row_clear);
  if (mg_activity_series_init (&self->main_series, profile, MG_ACTIVITY_MAIN_THREAD, process))
    {
      Row row = { MG_STACK_THREAD_MAIN, TRUE, NULL };

      g_array_append_val (self->rows, row);
    }
  add_stack_rows (self);
  g_array_sort (self->rows, compare_rows);
  return self;
}

void
mg_thread_strips_free (MgThreadStrips *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->rows);
  g_object_unref (self->profile);
  g_free (self);
}

int
mg_thread_strips_get_process (const MgThreadStrips *self)
{
  return self->process;
}

guint
mg_thread_strips_get_n_rows (const MgThreadStrips *self)
{
  return self->rows->len;
}

static const Row *
get_row (const MgThreadStrips *self, guint row)
{
  g_return_val_if_fail (row < self->rows->len, NULL);
  return &g_array_index (self->rows, Row, row);
}

int
mg_thread_strips_get_ordinal (const MgThreadStrips *self, guint row)
{
  const Row *r = get_row (self, row);

  return r != NULL ? r->ordinal : -1;
}

gboolean
mg_thread_strips_row_has_activity (const MgThreadStrips *self, guint row)
{
  const Row *r = get_row (self, row);

  return r != NULL && r->activity;
}

void
mg_thread_strips_get_extent (const MgThreadStrips *self, guint row, double *start, double *end)
{
  const Row *r = get_row (self, row);

  *start = *end = NAN;
  if (r == NULL)
    return;
  if (r->activity)
    {
      const MgSeriesView *view = &self->main_series.parts[MG_ACTIVITY_COMPUTING][0];

      if (view->n > 0)
        {
          *start = mg_series_view_window_start (view, 0);
          *end = view->ends[view->n - 1];
        }
    }
  else if (r->windows->len > 0)
    {
      *start = g_array_index (r->windows, Window, 0).start;
      *end = g_array_index (r->windows, Window, r->windows->len - 1).end;
    }
}

/* The class with the most (the first on a tie); NONE when all are empty. */
static guint8
dominant (const double *counts)
{
  guint8 best = MG_THREAD_NONE;
  double most = 0;

  for (guint k = 0; k < MG_THREAD_N_CLASSES; k++)
    if (!isnan (counts[k]) && counts[k] > most)
      {
        most = counts[k];
        best = (guint8) k;
      }
  return best;
}

static void
activity_columns (const MgThreadStrips *self, double t0, double t1, guint n, guint8 *classes)
{
  g_autoptr (MgActivityColumns) cols = mg_activity_columns_new (&self->main_series, t0, t1, n);

  for (guint c = 0; c < n; c++)
    {
      double counts[MG_THREAD_N_CLASSES] = { 0 };

      for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
        counts[k] = cols->shares[k][c];
      classes[c] = dominant (counts);
    }
}

/* The first window ending after t (binary search). */
static guint
find_window (const GArray *windows, double t)
{
  guint lo = 0, hi = windows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (windows, Window, mid).end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
mg_thread_strips_columns (const MgThreadStrips *self, guint row, double t0, double t1, guint n,
                          guint8 *classes)
{
  const Row *r = get_row (self, row);
  g_autofree double *acc = NULL;
  double per_column;

  memset (classes, MG_THREAD_NONE, n);
  if (r == NULL || n == 0 || !(t1 > t0))
    return;
  if (r->activity)
    {
      activity_columns (self, t0, t1, n, classes);
      return;
    }
  /* Each window's counts go to every column it overlaps: one pass over
   * the windows in view, one over the columns. */
  acc = g_new0 (double, (gsize) n * MG_THREAD_N_CLASSES);
  per_column = (t1 - t0) / n;
  for (guint i = find_window (r->windows, t0); i < r->windows->len; i++)
    {
      const Window *w = &g_array_index (r->windows, Window, i);
      double first = MAX (floor ((w->start - t0) / per_column + 1e-9), 0);
      double last = MIN (ceil ((w->end - t0) / per_column - 1e-9) - 1, n - 1.0);

      if (w->start >= t1)
        break;
      for (double c = first; c <= last; c++)
        for (guint k = 0; k < MG_THREAD_N_CLASSES; k++)
          acc[(gsize) c * MG_THREAD_N_CLASSES + k] += w->counts[k];
    }
  for (guint c = 0; c < n; c++)
    classes[c] = dominant (acc + (gsize) c * MG_THREAD_N_CLASSES);
}

static gboolean
activity_shares (const MgThreadStrips *self, double t_lo, double t_hi, double *start, double *end,
                 double shares[MG_THREAD_N_CLASSES])
{
  g_autoptr (MgActivityColumns) cols = NULL;

  if (!mg_activity_series_snap (&self->main_series, t_lo, t_hi, start, end))
    return FALSE;
  cols = mg_activity_columns_new (&self->main_series, *start, *end, 1);
  for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
    shares[k] = cols->shares[k][0];
  shares[MG_THREAD_OFF_CPU] = NAN;
  return !isnan (shares[MG_THREAD_COMPUTING]);
}

gboolean
mg_thread_strips_shares (const MgThreadStrips *self, guint row, double t_lo, double t_hi,
                         double *start, double *end, double shares[MG_THREAD_N_CLASSES])
{
  const Row *r = get_row (self, row);
  double counts[MG_THREAD_N_CLASSES] = { 0 }, total = 0;
  guint first;

  for (guint k = 0; k < MG_THREAD_N_CLASSES; k++)
    shares[k] = NAN;
  if (r == NULL)
    return FALSE;
  if (r->activity)
    return activity_shares (self, t_lo, t_hi, start, end, shares);
  first = find_window (r->windows, t_lo);
  if (first >= r->windows->len || g_array_index (r->windows, Window, first).start > t_hi)
    return FALSE;
  *start = g_array_index (r->windows, Window, first).start;
  for (guint i = first; i < r->windows->len; i++)
    {
      const Window *w = &g_array_index (r->windows, Window, i);

      /* A window starting at t_hi is not under it (unless it is the first). */
      if (i > first && w->start >= t_hi)
        break;
      *end = w->end;
      for (guint k = 0; k < MG_THREAD_N_CLASSES; k++)
        counts[k] += w->counts[k];
    }
  for (guint k = 0; k < MG_THREAD_N_CLASSES; k++)
    total += counts[k];
  for (guint k = 0; k < MG_THREAD_N_CLASSES; k++)
    if (k != MG_THREAD_IO && k != MG_THREAD_WAITING)
      shares[k] = total > 0 ? 100 * counts[k] / total : 0;
  return TRUE;
}

char *
mg_thread_strips_thread_name (const MgThreadStrips *self, int ordinal)
{
  return mg_profile_dup_thread_label (self->profile, self->process, (guint) ordinal);
}

const char *
mg_thread_class_name (MgThreadClass klass)
{
  if ((guint) klass < MG_ACTIVITY_N_CLASSES)
    return mg_activity_class_name ((MgActivityClass) klass);
  if (klass == MG_THREAD_OFF_CPU)
    /* TRANSLATORS: a thread neither computing nor in MPI: in I/O, asleep or
     * waiting on a lock, which the call stacks do not tell apart */
    return _("Off CPU");
  return "";
}

int
mg_thread_strips_default_process (MgProfile *profile)
{
  int first = -1;

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      const MgProcessInfo *info = mg_profile_get_process (profile, p);

      if (info->rank == 0)
        return (int) p;
      if (first < 0 && !info->helper)
        first = (int) p;
    }
  return first;
}
