/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The helper rule: children are judged before their parents (a parent is a
 * wrapper when its one real child is the program). */
#include "mg-config.h"

#include <string.h>

#include "mg-process-roles.h"

typedef struct {
  const MgProcessInfo *processes;
  guint n;
  double quick_s;
  int *parent;       /* index of the parent in the run, -1: none */
  gboolean *helper;
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

static gboolean
judge (const Roles *r, guint p, gboolean mpi_run)
{
  const MgProcessInfo *self = &r->processes[p];
  int parent = r->parent[p];
  guint n_real = 0, real = 0;

  /* Around the ranks of an MPI run: the scripts that start mpirun. */
  if (mpi_run && self->rank < 0)
    return TRUE;
  for (guint c = 0; c < r->n; c++)
    if (r->parent[c] == (int) p && !r->helper[c])
      n_real++, real = c;
  if (n_real == 1)
    return is_wrapper_of (r, p, real);
  if (n_real > 0 || parent < 0)
    return FALSE;
  /* A short step of its parent (readlink in a shim): its rank's, alone. */
  return self->end_s - self->start_s <= r->quick_s && self->rank == r->processes[parent].rank
         && !ran_beside_sibling (r, p);
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
                               gboolean *helper)
{
  g_autofree int *parent = g_new (int, MAX (n, 1));
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  Roles r = { processes, n, MAX (MG_HELPER_QUICK_INTERVALS * interval_ms / 1000.0,
                                 MG_HELPER_QUICK_MIN_S), parent, helper };
  gboolean mpi_run = FALSE, any_real = FALSE;

  for (guint p = 0; p < n; p++)
    {
      helper[p] = FALSE;
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
