/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How the processes ended, grouped (mg-process-ends.h). */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-error-list.h"
#include "mg-process-ends.h"

/* Ranges listed before the rest is cut to "…". */
#define MAX_RANGES 8

static gboolean
same_end (const MgProcessInfo *a, const MgProcessInfo *b)
{
  return !a->helper && !b->helper && a->end == b->end && a->status == b->status;
}

GPtrArray *
mg_process_ends_group (MgProfile *profile)
{
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint n = mg_profile_get_n_processes (profile);

  for (guint p = 0; p < n; p++)
    {
      const MgProcessInfo *process = mg_profile_get_process (profile, p);
      GArray *group = NULL;

      /* Few distinct ends in a run: a look at each group's first is enough. */
      for (guint g = 0; g < groups->len && group == NULL; g++)
        {
          GArray *candidate = g_ptr_array_index (groups, g);

          if (same_end (process, mg_profile_get_process (profile, g_array_index (candidate, guint, 0))))
            group = candidate;
        }
      if (group == NULL)
        {
          group = g_array_new (FALSE, FALSE, sizeof (guint));
          g_ptr_array_add (groups, group);
        }
      g_array_append_val (group, p);
    }
  return groups;
}

char *
mg_process_ends_describe (MgProfile *profile, GArray *group)
{
  const MgProcessInfo *first = mg_profile_get_process (profile, g_array_index (group, guint, 0));
  guint n = group->len;

  switch (first->end)
    {
    case MG_PROCESS_END_EXITED:
      return g_strdup_printf (ngettext ("%u process exited with status %d",
                                        "%u processes exited with status %d", n),
                              n, first->status);
    case MG_PROCESS_END_SIGNALLED:
      if (mg_error_list_is_fault_signal (first->status))
        /* Translators: how processes ended: their count, the signal's number and name */
        return g_strdup_printf (ngettext ("%u process crashed: signal %d (%s)",
                                          "%u processes crashed: signal %d (%s)", n),
                                n, first->status, g_strsignal (first->status));
      /* Translators: how processes ended: their count, the signal's number and name */
      return g_strdup_printf (ngettext ("%u process was killed by signal %d (%s)",
                                        "%u processes were killed by signal %d (%s)", n),
                              n, first->status, g_strsignal (first->status));
    case MG_PROCESS_END_EXECED:
      return g_strdup_printf (ngettext ("%u process was replaced by exec",
                                        "%u processes were replaced by exec", n), n);
    case MG_PROCESS_END_UNKNOWN:
    default:
      /* Translators: processes whose end was not recorded (still running, or SIGKILL) */
      return g_strdup_printf (ngettext ("%u process: end unknown", "%u processes: end unknown", n),
                              n);
    }
}

static int
compare_int (gconstpointer a, gconstpointer b)
{
  int x = *(const int *) a, y = *(const int *) b;

  return (x > y) - (x < y);
}

/* "0–3, 8, 10–63" of sorted numbers. */
static char *
format_ranges (GArray *numbers)
{
  GString *out = g_string_new (NULL);
  guint ranges = 0;

  for (guint i = 0; i < numbers->len; ranges++)
    {
      int start = g_array_index (numbers, int, i);
      guint j = i;

      while (j + 1 < numbers->len && g_array_index (numbers, int, j + 1) <= g_array_index (numbers, int, j) + 1)
        j++;
      if (ranges == MAX_RANGES)
        {
          g_string_append (out, ", …");
          break;
        }
      if (out->len > 0)
        g_string_append (out, ", ");
      if (g_array_index (numbers, int, j) == start)
        g_string_append_printf (out, "%d", start);
      else
        g_string_append_printf (out, "%d–%d", start, g_array_index (numbers, int, j));
      i = j + 1;
    }
  return g_string_free (out, FALSE);
}

char *
mg_process_ends_describe_members (MgProfile *profile, GArray *group)
{
  g_autoptr (GArray) numbers = g_array_sized_new (FALSE, FALSE, sizeof (int), group->len);
  g_autofree char *ranges = NULL;
  gboolean ranks = TRUE;

  for (guint i = 0; i < group->len; i++)
    ranks &= mg_profile_get_process (profile, g_array_index (group, guint, i))->rank >= 0;
  for (guint i = 0; i < group->len; i++)
    {
      const MgProcessInfo *process = mg_profile_get_process (profile, g_array_index (group, guint, i));
      int number = ranks ? process->rank : process->pid;

      g_array_append_val (numbers, number);
    }
  g_array_sort (numbers, compare_int);
  ranges = format_ranges (numbers);
  /* Translators: which processes, e.g. "ranks 0–3, 8" */
  return ranks ? g_strdup_printf (_("ranks %s"), ranges)
               /* Translators: which processes, by process id, e.g. "pids 4242–4250" */
               : g_strdup_printf (_("pids %s"), ranges);
}
