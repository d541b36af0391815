/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-cli-summary.h"

#include <math.h>

#include <glib/gi18n.h>

#include "mg-cli-message.h"
#include "profile/mg-process-images.h"
#include "profile/mg-profile-code.h"
#include "profile/mg-stack-set.h"
#include "profile/mg-unavailable.h"
#include "session/mg-rank-list.h"

/* --verbose: every plugin problem in full, then every metric error. */
static void
print_details (MgProfile *profile, GPtrArray *unavailable)
{
  guint n_processes = mg_profile_get_n_processes (profile);

  for (guint i = 0; i < unavailable->len; i++)
    {
      const MgUnavailable *entry = g_ptr_array_index (unavailable, i);

      g_printerr (ngettext ("metrograph: plugin %s (%s): %s (in %u of %u process)\n",
                            "metrograph: plugin %s (%s): %s (in %u of %u processes)\n",
                            n_processes),
                  entry->source_id, entry->library != NULL ? entry->library : "?",
                  entry->message, entry->processes, n_processes);
    }
  for (guint i = 0; i < mg_profile_get_n_metric_errors (profile); i++)
    {
      const MgMetricError *e = mg_profile_get_metric_error (profile, i);
      g_autofree char *who = e->process >= 0 && (guint) e->process < n_processes
                               ? g_strdup_printf ("%d", mg_profile_get_process (profile,
                                                                              (guint) e->process)->pid)
                               : g_strdup ("?");

      g_printerr (ngettext ("metrograph: metric %s: %s (%u time, in process %s)\n",
                            "metrograph: metric %s: %s (%u times, in process %s)\n",
                            MAX (e->count, 1)),
                  e->metric_id, e->message != NULL ? e->message : "", MAX (e->count, 1), who);
    }
}

/* One line: "Energy (no RAPL), MPI (not an MPI program)". */
static char *
list_unavailable (GPtrArray *unavailable)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < unavailable->len; i++)
    {
      const MgUnavailable *entry = g_ptr_array_index (unavailable, i);

      if (i > 0)
        g_string_append (text, ", ");
      if (*entry->reason != '\0')
        g_string_append_printf (text, "%s (%s)", entry->name, entry->reason);
      else
        g_string_append (text, entry->name);
    }
  return g_string_free (text, FALSE);
}

/* The metric ids with errors, each once: "cpu_time, rss". */
static char *
list_metric_errors (MgProfile *profile, guint *n_ids)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < mg_profile_get_n_metric_errors (profile); i++)
    {
      const MgMetricError *e = mg_profile_get_metric_error (profile, i);

      if (!g_hash_table_add (seen, e->metric_id))
        continue;
      g_string_append_printf (text, "%s%s", text->len > 0 ? ", " : "", e->metric_id);
    }
  *n_ids = g_hash_table_size (seen);
  return g_string_free (text, FALSE);
}

/* What ended a process's recording or its plugins early: always said, one
 * line each, since they explain where values stop. Crashed and hung
 * plugins, recordings stopped (a full disk), records that could not be
 * read. */
static void
print_run_problems (MgProfile *profile)
{
  guint n_processes = mg_profile_get_n_processes (profile);

  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    {
      const MgProcessEvent *e = mg_profile_get_event (profile, i);
      int pid;

      if (e->process < 0 || (guint) e->process >= n_processes)
        continue;
      pid = mg_profile_get_process (profile, (guint) e->process)->pid;
      if (e->kind == MG_EVENT_PLUGIN_FAULT)
        /* Translators: a process id, then the plugin and what happened to it, e.g. "energy.src
         * crashed in energy_value with SIGSEGV at sample 20; its metrics stop there" */
        g_printerr (_("metrograph: process %d: plugin %s\n"), pid,
                    e->message != NULL ? e->message : "?");
      else if (e->kind == MG_EVENT_RECORDING_STOPPED)
        /* Translators: a process id, then why, e.g. "cannot allocate record …: No space left
         * on device" */
        g_printerr (_("metrograph: process %d stopped recording: %s\n"), pid,
                    e->message != NULL ? e->message : "?");
    }
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
    {
      const MgPluginError *e = mg_profile_get_plugin_error (profile, i);

      /* A record that could not be read names its file in place of a library. */
      if (e->source_id == NULL)
        g_printerr ("metrograph: %s\n", e->message != NULL ? e->message : "?");
    }
}

/* By default one line for what this machine cannot measure and one for
 * metrics that failed while sampling; the details are in the profile (the
 * viewer's error list) and, with --verbose, here. */
static void
print_problems (MgProfile *profile, gboolean verbose)
{
  g_autoptr (GPtrArray) unavailable = mg_unavailable_collect (profile);
  g_autofree char *listed = NULL;
  g_autofree char *failed = NULL;
  guint n_failed = 0;

  print_run_problems (profile);
  if (verbose)
    {
      print_details (profile, unavailable);
      return;
    }
  if (unavailable->len > 0)
    {
      listed = list_unavailable (unavailable);
      g_printerr (_("metrograph: not available here: %s; --verbose or the viewer "
                    "says more\n"),
                  listed);
    }
  failed = list_metric_errors (profile, &n_failed);
  if (n_failed > 0)
    g_printerr (ngettext ("metrograph: %u metric failed while sampling: %s; --verbose or the "
                          "viewer's error list says more\n",
                          "metrograph: %u metrics failed while sampling: %s; --verbose or the "
                          "viewer's error list says more\n",
                          n_failed),
                n_failed, failed);
}

/* How many processes ran which programs (those of the first few, by the
 * program each became), and how many helpers: "1 process (true (via
 * env))", "2 processes (mg-cli-workload) and 2 helper processes". */
static char *
describe_processes (MgProfile *profile)
{
  guint n_helpers = mg_profile_get_n_helpers (profile);
  guint n = mg_profile_get_n_processes (profile) - n_helpers;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) programs = mg_profile_describe_process_programs (profile);
  gboolean more = FALSE;

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      g_autofree char *name = NULL;

      if (mg_profile_get_process (profile, p)->helper)
        continue;
      name = g_strdup (g_ptr_array_index (programs, p));
      if (g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL))
        continue;
      if (names->len == 3)
        {
          more = TRUE;
          break;
        }
      g_ptr_array_add (names, g_steal_pointer (&name));
    }
  g_autofree char *joined = NULL;
  g_autofree char *counted = NULL;

  g_ptr_array_add (names, NULL);
  joined = g_strjoinv (", ", (char **) names->pdata);
  /* Translators: how many processes, then the programs they ran, e.g. "2 processes
   * (mg-cli-workload)" */
  counted = g_strdup_printf (ngettext ("%u process (%s%s)", "%u processes (%s%s)", n), n, joined,
                             more ? ", …" : "");
  if (n_helpers == 0)
    return g_steal_pointer (&counted);
  /* Translators: the processes, then how many helpers, e.g. "1 process (python3) and 78
   * helper processes" */
  return g_strdup_printf (ngettext ("%s and %u helper process", "%s and %u helper processes",
                                    n_helpers),
                          counted, n_helpers);
}

/* How much source text the profile carries (mg-profile-code.h), and how
 * many files that hold sampled lines it could not keep (the report names
 * them). */
static void
print_sources (MgProfile *profile)
{
  guint kept = mg_profile_get_n_sources (profile);
  guint left = mg_profile_get_n_source_omissions (profile);

  if (mg_profile_get_source_limit (profile) == 0)
    return;
  g_autofree char *size =
    g_format_size_full (mg_profile_get_sources_size (profile), G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *kept_text = g_strdup_printf (
    ngettext ("the profile keeps the source text of %u file (%s)",
              "the profile keeps the source text of %u files (%s)", kept), kept, size);
  if (left == 0)
    g_printerr ("metrograph: %s\n", kept_text);
  else
    /* Translators: %s is "the profile keeps the source text of N files (SIZE)" */
    g_printerr (ngettext ("metrograph: %s; %u file with sampled lines is left out (the report "
                          "names it)\n",
                          "metrograph: %s; %u files with sampled lines are left out (the report "
                          "names them)\n", left),
                kept_text, left);
}

/* How many call-stack samples were taken, and what became of those that
 * are not in the profile's stacks. */
static void
print_stacks (MgProfile *profile)
{
  g_autoptr (MgStackSet) set = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  guint64 taken = mg_stack_set_get_taken (set);
  guint64 lost = mg_stack_set_get_lost (set);
  guint aside = mg_stack_set_get_n_stepped_aside (set);

  if (mg_stack_set_get_n_processes (set) == 0)
    return;
  if (lost == 0)
    g_printerr (ngettext ("metrograph: %lu call-stack sample\n",
                          "metrograph: %lu call-stack samples\n", taken),
                (unsigned long) taken);
  else
    /* Translators: samples taken, then how many of them are not in the stacks */
    g_printerr (ngettext ("metrograph: %lu call-stack sample, %lu of them not stored (the "
                          "stack table was full)\n",
                          "metrograph: %lu call-stack samples, %lu of them not stored (the "
                          "stack table was full)\n", taken),
                (unsigned long) taken, (unsigned long) lost);
  print_sources (profile);
  if (aside > 0)
    g_printerr (ngettext ("metrograph: call stacks stopped in %u process: it installed its own "
                          "handler for the sampler's signal\n",
                          "metrograph: call stacks stopped in %u processes: they installed their "
                          "own handler for the sampler's signal\n", aside),
                aside);
}

void
mg_cli_print_summary (MgProfile *profile, const char *output, double stopped_after_s,
                      gboolean verbose)
{
  const MgRunInfo *info = mg_profile_get_run_info (profile);
  g_autofree char *processes = describe_processes (profile);
  g_autofree char *nodes = g_strdup_printf (ngettext ("%u node", "%u nodes", info->n_nodes),
                                            info->n_nodes);
  guint n_windows = mg_profile_get_n_windows (profile);
  g_autofree char *samples = g_strdup_printf (ngettext ("%u sample", "%u samples", n_windows),
                                              n_windows);

  g_printerr (_("metrograph: profile written to %s\n"), output);
  /* Translators: the processes, the nodes, then how many samples, e.g. "1 process
   * (app) on 1 node, 151 samples (20 ms apart at the end)…" */
  g_printerr (_("metrograph: %s on %s, %s (%.3g ms apart at the end), %.1f s, "
                "exit status %d\n"),
              processes, nodes, samples, info->interval_end_ms, info->duration_s,
              info->exit_status);
  if (stopped_after_s > 0)
    g_printerr (_("metrograph: the program was ended after %g s (--stop-after)\n"),
                stopped_after_s);
  if (mg_profile_get_process_precision (profile) != MG_PROCESS_PRECISION_EXACT)
    /* Translators: the keyword of --process-precision (not translated) */
    g_printerr (_("metrograph: each process's own series are stored at %s precision "
                  "(--process-precision), off by at most 2^-24 of each value; the aggregates "
                  "across processes are exact\n"),
                mg_process_precision_to_keyword (mg_profile_get_process_precision (profile)));
  print_stacks (profile);
  print_problems (profile, verbose);
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

gboolean
mg_cli_print_unmeasured (GPtrArray *asked)
{
  for (guint i = 0; i < asked->len; i++)
    {
      const MgUnavailableAsked *one = g_ptr_array_index (asked, i);

      mg_cli_print_error (_("--enable-metrics=%s: not available on this machine: %s (the "
                            "profile is written without it)"),
                          one->asked, one->message);
    }
  return asked->len == 0;
}
