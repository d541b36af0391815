#include "mg-config.h"

#include "mg-cli-summary.h"

#include <glib/gi18n.h>

#include "mg-rank-list.h"

typedef struct {
  char *what;       /* "plugin X (lib)" or "metric X" */
  char *message;
  guint processes;
  guint count;
} ErrorLine;

static void
error_line_free (gpointer data)
{
  ErrorLine *line = data;

  g_free (line->what);
  g_free (line->message);
  g_free (line);
}

/* Keyed by what + message: the same failure in 64 processes is one line. */
static void
count_error (GHashTable *table, GPtrArray *order, char *what, const char *message, guint count)
{
  g_autofree char *key = g_strconcat (what, "\n", message, NULL);
  ErrorLine *line = g_hash_table_lookup (table, key);

  if (line == NULL)
    {
      line = g_new0 (ErrorLine, 1);
      line->what = what;
      line->message = g_strdup (message);
      g_hash_table_insert (table, g_steal_pointer (&key), line);
      g_ptr_array_add (order, line);
    }
  else
    g_free (what);
  line->processes++;
  line->count += count;
}

static void
print_errors (MgProfile *profile)
{
  g_autoptr (GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) order = g_ptr_array_new_with_free_func (error_line_free);

  for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
    {
      const MgPluginError *e = mg_profile_get_plugin_error (profile, i);

      count_error (table, order, g_strdup_printf (_("plugin %s (%s)"), e->source_id,
                                                  e->library != NULL ? e->library : "?"),
                   e->message != NULL ? e->message : "", 1);
    }
  for (guint i = 0; i < mg_profile_get_n_metric_errors (profile); i++)
    {
      const MgMetricError *e = mg_profile_get_metric_error (profile, i);

      count_error (table, order, g_strdup_printf (_("metric %s"), e->metric_id),
                   e->message != NULL ? e->message : "", MAX (e->count, 1));
    }
  for (guint i = 0; i < order->len; i++)
    {
      const ErrorLine *line = g_ptr_array_index (order, i);

      g_printerr (_("metrograph: %s: %s (seen %u times, in %u processes)\n"), line->what,
                  line->message, line->count, line->processes);
    }
}

void
mg_cli_print_summary (MgProfile *profile, const char *output, double stopped_after_s)
{
  const MgRunInfo *info = mg_profile_get_run_info (profile);
  g_autofree char *processes = g_strdup_printf (ngettext ("%u process", "%u processes",
                                                          info->n_processes),
                                                info->n_processes);
  g_autofree char *nodes = g_strdup_printf (ngettext ("%u node", "%u nodes", info->n_nodes),
                                            info->n_nodes);

  g_printerr (_("metrograph: profile written to %s\n"), output);
  g_printerr (_("metrograph: %s on %s, %u samples (%.3g ms apart at the end), %.1f s, "
                "exit status %d\n"),
              processes, nodes, mg_profile_get_n_windows (profile), info->interval_end_ms,
              info->duration_s, info->exit_status);
  if (stopped_after_s > 0)
    g_printerr (_("metrograph: the program was ended after %g s (--stop-after)\n"),
                stopped_after_s);
  print_errors (profile);
}

void
mg_cli_print_rank_selection (MgProfile *profile, const char *select_ranks)
{
  g_autoptr (GArray) ranks = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree char *sampled = NULL;

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      int rank = mg_profile_get_process (profile, p)->rank;

      if (rank >= 0)
        g_array_append_val (ranks, rank);
    }
  sampled = mg_rank_list_from_ranks ((const int *) (void *) ranks->data, ranks->len);
  g_printerr (_("metrograph: ranks selected: %s (--select-ranks); ranks in the profile: %s\n"),
              select_ranks, *sampled != '\0' ? sampled : _("none"));
}
