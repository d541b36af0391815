/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --merge-node RUNDIR: the records this node wrote into a run folder,
 * reduced into the node's summary there (mg-node-summary.h), for a site
 * launcher to run once per node after the job's processes ended. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "format/mg-record-format.h"
#include "format/mg-run-folder-layout.h"
#include "mg-cli.h"
#include "profile/mg-node-summary.h"

/* What was left behind, if anything: one line each. */
static void
print_left (const MgNodeSummaryStats *stats, const char *record_dir)
{
  if (stats->n_running > 0)
    mg_cli_print_error (ngettext ("%u record in %s left: its process still runs (run "
                                  "--merge-node again once it has ended)",
                                  "%u records in %s left: their processes still run (run "
                                  "--merge-node again once they have ended)",
                                  stats->n_running),
                        stats->n_running, record_dir);
  if (stats->n_damaged > 0)
    mg_cli_print_error (ngettext ("%u record in %s left: it cannot be read (the front end's "
                                  "merge names it)",
                                  "%u records in %s left: they cannot be read (the front end's "
                                  "merge names them)",
                                  stats->n_damaged),
                        stats->n_damaged, record_dir);
}

int
mg_cli_merge_node (const MgCliOptions *o)
{
  g_autofree char *record_dir = g_build_filename (o->merge_node_dir, MG_RUN_FOLDER_RECORDS, NULL);
  g_autofree char *name = NULL;
  g_autofree char *summary = NULL;
  g_autoptr (GError) error = NULL;
  char host[MG_RECORD_HOST_LEN];
  MgNodeSummaryStats stats;

  if (!g_file_test (o->merge_node_dir, G_FILE_TEST_IS_DIR))
    {
      mg_cli_print_error (_("--merge-node=%s: no such folder (give the run folder, "
                            "metrograph-XXXXXX, as the processes of this node saw it)"),
                          o->merge_node_dir);
      return MG_EXIT_USAGE;
    }
  if (!g_file_test (record_dir, G_FILE_TEST_IS_DIR))
    {
      mg_cli_print_error (_("--merge-node=%s: not a run folder, it has no %s/ folder (no "
                            "process of the run wrote a record on this node?)"),
                          o->merge_node_dir, MG_RUN_FOLDER_RECORDS);
      return MG_EXIT_USAGE;
    }
  mg_record_host_name (host);
  name = mg_node_summary_file_name (host);
  summary = g_build_filename (record_dir, name, NULL);
  if (!mg_node_summary_merge (record_dir, host, &stats, &error))
    {
      mg_cli_print_error (_("cannot reduce the records of node %s: %s (the records stay in %s)"),
                          host, error->message, record_dir);
      return MG_EXIT_PROFILE_FILE;
    }
  if (stats.n_records == 0)
    mg_cli_print_error (_("node %s: no record of this node to reduce in %s (reduced already, "
                          "or none was written here)"), host, record_dir);
  else if (stats.n_kept > 0)
    mg_cli_print_error (ngettext ("node %s: %u record reduced into %s, beside the %u processes "
                                  "it held",
                                  "node %s: %u records reduced into %s, beside the %u processes "
                                  "it held",
                                  stats.n_records),
                        host, stats.n_records, summary, stats.n_kept);
  else
    mg_cli_print_error (ngettext ("node %s: %u record reduced into %s",
                                  "node %s: %u records reduced into %s", stats.n_records),
                        host, stats.n_records, summary);
  print_left (&stats, record_dir);
  return 0;
}
