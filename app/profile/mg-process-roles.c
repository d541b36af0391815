/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The helper rule: children are judged before their parents (a parent is a
 * wrapper when its one real child is the program); what the times make a
 * helper is asked for its CPU time, so that only those series are read. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "mg-process-roles.h"

typedef struct {
  const MgProcessInfo *processes;
  guint n;
  double quick_s;
  MgHelperRule rule;
  int *parent;       /* index of the parent in the run, -1: none */
  double *steps_s;   /* how long each process's steps lived, together; NaN: not yet known */
  gboolean *helper;
  MgProcessCpuFunc cpu_seconds;
  gpointer cpu_data;
} Roles;

/* The process of the same host whose pid is p's parent and which lived
 * when p started (pids are reused: the latest such one). */
static int
find_parent (const Roles *r, guint p)
{
  const MgProcessInfo *child = &r->processes[p];
  int found = -1;

  for (guint q = 0; q < r->n; q++)
    {
      const MgProcessInfo *candidate = &r->processes[q];

      if (q == p || candidate->pid != child->ppid
          || g_strcmp0 (candidate->host, child->host) != 0
          || candidate->start_s > child->start_s || candidate->end_s + r->quick_s < child->start_s)
        continue;
      if (found < 0 || candidate->start_s > r->processes[found].start_s)
        found = (int) q;
    }
  return found;
}

/* p started its one real child c at once and ended with it. */
static gboolean
is_wrapper_of (const Roles *r, guint p, guint c)
{
  const MgProcessInfo *w = &r->processes[p], *child = &r->processes[c];
  double own = MAX (child->start_s - w->start_s, 0.0) + MAX (w->end_s - child->end_s, 0.0);

  return w->rank == child->rank && own <= r->quick_s;
}

/* Whether another child of p's parent ran while p did (make -j2's jobs). */
static gboolean
ran_beside_sibling (const Roles *r, guint p)
{
  const MgProcessInfo *self = &r->processes[p];

  for (guint q = 0; q < r->n; q++)
    if (q != p && r->parent[q] == r->parent[p] && r->processes[q].start_s < self->end_s
        && self->start_s < r->processes[q].end_s)
      return TRUE;
  return FALSE;
}

/* Quick, and no other child of its parent beside it: a step, by its
 * times alone. */
static gboolean
is_step (const Roles *r, guint p)
{
  const MgProcessInfo *self = &r->processes[p];

  return self->end_s - self->start_s <= r->quick_s && !ran_beside_sibling (r, p);
}

/* Whether the steps of parent, one after the other, filled at least
 * MG_HELPER_STEPS_WORK_SHARE of its life: they are its work (a script's loop over files, a no-op
 * make's $(shell …)s), not what a launch goes through, where the program
 * that the steps lead to lives far longer (a shim's readlink and dirname
 * before it execs the program). */
static gboolean
steps_are_work (const Roles *r, guint parent)
{
  const MgProcessInfo *self = &r->processes[parent];

  if (isnan (r->steps_s[parent]))
    {
      double sum = 0.0;

      for (guint q = 0; q < r->n; q++)
        if (r->parent[q] == (int) parent && is_step (r, q))
          sum += r->processes[q].end_s - r->processes[q].start_s;
      r->steps_s[parent] = sum;
    }
  return r->steps_s[parent] >= MG_HELPER_STEPS_WORK_SHARE * (self->end_s - self->start_s);
}

/* What its times say (wrapper or short step). */
static gboolean
judge_times (const Roles *r, guint p)
{
  const MgProcessInfo *self = &r->processes[p];
  int parent = r->parent[p];
  guint n_real = 0, real = 0;

  for (guint c = 0; c < r->n; c++)
    if (r->parent[c] == (int) p && !r->helper[c])
      n_real++, real = c;
  if (n_real == 1)
    return is_wrapper_of (r, p, real);
  if (n_real > 0 || parent < 0)
    return FALSE;
  /* How long it lived is not known (it stopped recording at its start:
   * its record could not be made): no short step by its times. */
  if (self->end == MG_PROCESS_END_UNKNOWN && self->end_s <= self->start_s)
    return FALSE;
  /* A step that failed, and its parent with it, is the news of the run
   * (the cc1 that found the error, its driver and make failing after it),
   * not a shim's test that fails by design and is gone past. */
  if (r->rule == MG_HELPER_RULE_STEPS_HELPERS)
    return self->rank == r->processes[parent].rank && is_step (r, p);
  if (mg_process_info_failed (self) && mg_process_info_failed (&r->processes[parent]))
    return FALSE;
  /* A short step of its parent (readlink in a shim): its rank's, alone,
   * and not one of the many that are the parent's work. */
  return self->rank == r->processes[parent].rank && is_step (r, p)
         && !steps_are_work (r, (guint) parent);
}

static gboolean
judge (const Roles *r, guint p, gboolean mpi_run)
{
  double cpu_s;

  /* Around the ranks of an MPI run: the scripts that start mpirun. */
  if (mpi_run && r->processes[p].rank < 0)
    return TRUE;
  if (!judge_times (r, p))
    return FALSE;
  /* Quick, but it computed (a program that then runs a pipeline). */
  cpu_s = r->cpu_seconds != NULL ? r->cpu_seconds (p, r->cpu_data) : NAN;
  return !(cpu_s >= MG_HELPER_BUSY_S);
}

static int
compare_later_first (gconstpointer a, gconstpointer b, gpointer data)
{
  const MgProcessInfo *processes = data;
  double x = processes[*(const guint *) a].start_s, y = processes[*(const guint *) b].start_s;

  return (x < y) - (x > y);
}

void
mg_process_roles_find_helpers (const MgProcessInfo *processes, guint n, double interval_ms,
                               MgHelperRule rule, MgProcessCpuFunc cpu_seconds,
                               gpointer user_data, gboolean *helper)
{
  g_autofree int *parent = g_new (int, MAX (n, 1));
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  g_autofree double *steps_s = g_new (double, MAX (n, 1));
  Roles r = { processes, n, MAX (MG_HELPER_QUICK_INTERVALS * interval_ms / 1000.0,
                                 MG_HELPER_QUICK_MIN_S), rule, parent, steps_s, helper,
              cpu_seconds, user_data };
  gboolean mpi_run = FALSE, any_real = FALSE;

  for (guint p = 0; p < n; p++)
    {
      helper[p] = FALSE;
      steps_s[p] = NAN;
      parent[p] = find_parent (&r, p);
      order[p] = p;
      mpi_run |= processes[p].rank >= 0;
    }
  /* Children start after their parents: the later first. */
  g_qsort_with_data (order, n, sizeof *order, compare_later_first, (gpointer) processes);
  for (guint i = 0; i < n; i++)
    helper[order[i]] = judge (&r, order[i], mpi_run);
  for (guint p = 0; p < n; p++)
    any_real |= !helper[p];
  if (!any_real)
    memset (helper, 0, n * sizeof *helper);
}

double
mg_process_roles_cpu_seconds (const double *times, const double *means, gsize n, double start_s)
{
  double sum = 0.0, from = start_s;
  gboolean any = FALSE;

  for (gsize k = 0; k < n; k++)
    {
      if (!isnan (means[k]))
        {
          sum += means[k] / 100.0 * MAX (times[k] - from, 0.0);
          any = TRUE;
        }
      from = times[k];
    }
  return any ? sum : NAN;
}

int
mg_process_roles_find_cpu_metric (GPtrArray *metrics)
{
  for (guint m = 0; m < metrics->len; m++)
    {
      const MgMetricDef *def = g_ptr_array_index (metrics, m);

      if (g_strcmp0 (def->id, MG_HELPER_CPU_METRIC) == 0)
        return def->domain == MG_DOMAIN_TIME ? (int) m : -1;
    }
  return -1;
}
