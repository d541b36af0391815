/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report's "MPI call sites that waited longest": the call-stack
 * samples of threads blocked in an MPI call (MG_STACK_MPI: the MPI
 * function, then its call site, then its callers), summed per function
 * and call site over the processes, with the time waited and the ranks
 * that waited there. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mg-report.h"
#include "profile/mg-export-folded.h"
#include "profile/mg-stack-set.h"

#define TOP_SITES 10
/* Ranks named on a line; more are counted. */
#define RANKS_NAMED 8

typedef struct {
  char *name;          /* "MPI_Barrier (file.c:12, in caller)" */
  guint64 count;
  GArray *ranks;       /* int, distinct, in order of first sight */
} Site;

static void
site_free (gpointer data)
{
  Site *s = data;
  g_free (s->name);
  g_array_unref (s->ranks);
  g_free (s);
}

/* The innermost name of a frame (the function the address is in, after
 * inlining). */
static const MgStackFrameName *
innermost (GPtrArray *names)
{
  return names->len > 0 ? g_ptr_array_index (names, names->len - 1) : NULL;
}

/* "MPI_Barrier (mpi-workload.c:88, in in_flight)": the MPI function, the
 * call site's line and the function it is in, as much as is known. */
static char *
site_name (const MgStackSet *set, const MgStackFrame *frames, guint n, const MgStackNamer *namer)
{
  g_autoptr (GPtrArray) fn_names = mg_stack_frame_names (set, &frames[0], FALSE, namer);
  const MgStackFrameName *fn = innermost (fn_names);
  const char *function = fn != NULL ? fn->label : "?";
  if (n < 2)
    return g_strdup (function);
  g_autoptr (GPtrArray) site_names = mg_stack_frame_names (set, &frames[1], TRUE, namer);
  const MgStackFrameName *site = innermost (site_names);
  if (site == NULL)
    return g_strdup (function);
  if (site->file == NULL || site->line == 0)
    /* TRANSLATORS: an MPI function and the function that called it. */
    return g_strdup_printf (_("%s (in %s)"), function, site->label);
  g_autofree char *base = g_path_get_basename (site->file);
  /* TRANSLATORS: an MPI function, the file and line that called it, and
   * the function that line is in. */
  return g_strdup_printf (_("%s (%s:%u, in %s)"), function, base, site->line, site->label);
}

static void
add_rank (Site *s, int rank)
{
  for (guint i = 0; i < s->ranks->len; i++)
    if (g_array_index (s->ranks, int, i) == rank)
      return;
  g_array_append_val (s->ranks, rank);
}

static int
int_compare (gconstpointer a, gconstpointer b)
{
  int x = *(const int *) a, y = *(const int *) b;
  return (x > y) - (x < y);
}

/* The line's name: the site, then its ranks ("rank 1", "ranks 0, 2, 3",
 * "ranks 0, 1, … and 120 more"). */
static char *
line_name (Site *s)
{
  g_array_sort (s->ranks, int_compare);
  g_autoptr (GString) list = g_string_new (NULL);
  for (guint i = 0; i < s->ranks->len && i < RANKS_NAMED; i++)
    g_string_append_printf (list, "%s%d", i > 0 ? ", " : "", g_array_index (s->ranks, int, i));
  if (s->ranks->len > RANKS_NAMED)
    {
      guint more = s->ranks->len - RANKS_NAMED;
      g_string_append_c (list, ' ');
      g_string_append_printf (list, ngettext ("and %u more", "and %u more", more), more);
    }
  /* TRANSLATORS: a call site, then the MPI ranks (or processes) that waited there. */
  return g_strdup_printf (ngettext ("%s, rank %s", "%s, ranks %s", s->ranks->len), s->name,
                          list->str);
}

static int
by_count (gconstpointer a, gconstpointer b)
{
  const Site *sa = *(Site *const *) a, *sb = *(Site *const *) b;
  if (sa->count != sb->count)
    return sa->count < sb->count ? 1 : -1;
  return strcmp (sa->name, sb->name);
}

/* Adds process p's MPI waits to sites (name → Site). */
static void
add_process (GHashTable *sites, MgProfile *profile, guint p, const MgStackNamer *namer)
{
  g_autoptr (MgStackSet) set = mg_stack_set_new (profile, (int) p, -INFINITY, INFINITY);
  const MgProcessInfo *process = mg_profile_get_process (profile, p);
  int rank = process->rank >= 0 ? process->rank : (int) p;
  for (guint k = 0; k < mg_stack_set_get_n_stacks (set); k++)
    {
      guint n, flags;
      const MgStackFrame *frames = mg_stack_set_get_frames (set, k, &n, &flags);
      guint64 count = mg_stack_set_get_count (set, k);
      if (!(flags & MG_STACK_MPI) || n == 0 || count == 0)
        continue;
      g_autofree char *name = site_name (set, frames, n, namer);
      Site *s = g_hash_table_lookup (sites, name);
      if (s == NULL)
        {
          s = g_new0 (Site, 1);
          s->name = g_steal_pointer (&name);
          s->ranks = g_array_new (FALSE, FALSE, sizeof (int));
          g_hash_table_insert (sites, s->name, s);
        }
      s->count += count;
      add_rank (s, rank);
    }
}

void
mg_report_add_mpi_sites (MgReport *report, MgProfile *profile, const MgStackNamer *namer)
{
  g_autoptr (GHashTable) sites = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, site_free);
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    add_process (sites, profile, p, namer);
  if (g_hash_table_size (sites) == 0)
    return;
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, sites);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (all, value);
  g_ptr_array_sort (all, by_count);

  /* A blocked thread is sampled once a round: each sample stands for one
   * sampling interval of waiting. Once the record's slots halved (a run
   * longer than max_samples intervals) the rounds are further apart, and
   * the run's first interval makes the figure a lower bound. */
  double interval_s = mg_profile_get_run_info (profile)->interval_start_ms / 1000.0;
  MgReportSection *section = g_new0 (MgReportSection, 1);
  section->heading = g_strdup (_("MPI call sites that waited longest"));
  section->text = g_markup_escape_text (
    _("The MPI calls that threads were blocked in, by call site: the time waited there, "
      "over all ranks (samples of the waiting threads times the sampling interval), and the "
      "ranks that waited."), -1);
  section->lines = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_report_line_free);
  double longest = (double) ((Site *) g_ptr_array_index (all, 0))->count * interval_s;
  for (guint i = 0; i < all->len && i < TOP_SITES; i++)
    {
      Site *s = g_ptr_array_index (all, i);
      g_autofree char *name = line_name (s);
      MgReportLine *line = mg_report_line_new (name, (double) s->count * interval_s, "s", NULL);
      mg_report_line_set_scale (line, longest, TRUE, "s");
      g_ptr_array_add (section->lines, line);
    }
  g_ptr_array_add (report->sections, section);
}
