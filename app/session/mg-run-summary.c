/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-summary.h"

#include <math.h>
#include <signal.h>

#include <glib/gi18n.h>

#include "profile/mg-process-images.h"
#include "profile/mg-profile-code.h"
#include "profile/mg-stack-set.h"
#include "profile/mg-unavailable.h"
#include "mg-rank-list.h"

/* What the lines say, read from the profile in one pass before any line is
 * made: the lines are then made from these alone. Pointers are the
 * profile's, which outlives this. */
typedef struct {
  const MgRunInfo *info;
  GPtrArray *processes;     /* const MgProcessInfo*, in the profile's order */
  GPtrArray *programs;      /* the program of each process (owned) */
  guint n_helpers;
  guint n_windows;
  MgProcessPrecision precision;
  const char *precision_keyword; /* --process-precision's word for it */
  guint64 stacks_taken;
  guint64 stacks_lost;
  guint64 stacks_lost_unended;
  guint stacks_aside;
  guint stacks_failed;
  guint n_stack_processes;
  guint n_unsampled;        /* ended within the first interval, no metric value */
  guint n_unended;          /* still running at the merge, or killed without trace */
  guint n_sigsys;           /* killed by SIGSYS: a seccomp filter's refusal */
  gsize source_limit;       /* 0: the profile keeps no source text */
  guint n_sources;
  guint n_source_omissions;
  gsize sources_size;
  GPtrArray *events;        /* const MgProcessEvent* */
  GPtrArray *plugin_errors; /* const MgPluginError* */
  GPtrArray *metric_errors; /* const MgMetricError* */
  GPtrArray *unavailable;   /* MgUnavailable* (owned) */
  GPtrArray *asked;         /* MgUnavailableAsked* (owned); NULL: none asked */
} Facts;

/* How many processes had not ended when the run did. One whose recording
 * stopped (its record could not be made, or its disk filled) has no known
 * end for that reason, which its own line says: not counted. */
static guint
count_unended (const Facts *f)
{
  g_autofree gboolean *stopped = g_new0 (gboolean, f->processes->len + 1);
  guint n = 0;

  for (guint i = 0; i < f->events->len; i++)
    {
      const MgProcessEvent *e = g_ptr_array_index (f->events, i);

      if (e->kind == MG_EVENT_RECORDING_STOPPED && e->process >= 0
          && (guint) e->process < f->processes->len)
        stopped[e->process] = TRUE;
    }
  for (guint p = 0; p < f->processes->len; p++)
    n += ((const MgProcessInfo *) g_ptr_array_index (f->processes, p))->end
           == MG_PROCESS_END_UNKNOWN
         && !stopped[p];
  return n;
}

/* Every read of the profile the summary makes, in one place. */
static void
read_facts (Facts *f, MgProfile *profile, const MgRunSummaryRequest *request)
{
  MgStackCounts stacks;

  /* Counts only: the stacks themselves are not decoded to open a profile. */
  mg_profile_get_stack_counts (profile, &stacks);
  f->info = mg_profile_get_run_info (profile);
  f->processes = g_ptr_array_new ();
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    g_ptr_array_add (f->processes, (gpointer) mg_profile_get_process (profile, p));
  f->programs = mg_profile_describe_process_programs (profile);
  f->n_helpers = mg_profile_get_n_helpers (profile);
  f->n_windows = mg_profile_get_n_windows (profile);
  f->precision = mg_profile_get_process_precision (profile);
  f->precision_keyword = mg_process_precision_to_keyword (f->precision);
  f->stacks_taken = stacks.taken;
  f->stacks_lost = stacks.lost;
  f->stacks_lost_unended = stacks.lost_unended;
  f->stacks_aside = stacks.n_stepped_aside;
  f->stacks_failed = stacks.n_failed;
  f->n_stack_processes = stacks.n_processes;
  f->source_limit = mg_profile_get_source_limit (profile);
  f->n_sources = mg_profile_get_n_sources (profile);
  f->n_source_omissions = mg_profile_get_n_source_omissions (profile);
  f->sources_size = mg_profile_get_sources_size (profile);
  f->events = g_ptr_array_new ();
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    g_ptr_array_add (f->events, (gpointer) mg_profile_get_event (profile, i));
  f->plugin_errors = g_ptr_array_new ();
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
    g_ptr_array_add (f->plugin_errors, (gpointer) mg_profile_get_plugin_error (profile, i));
  f->metric_errors = g_ptr_array_new ();
  for (guint i = 0; i < mg_profile_get_n_metric_errors (profile); i++)
    g_ptr_array_add (f->metric_errors, (gpointer) mg_profile_get_metric_error (profile, i));
  f->n_unsampled = mg_profile_get_n_unsampled (profile);
  f->n_unended = count_unended (f);
  for (guint p = 0; p < f->processes->len; p++)
    {
      const MgProcessInfo *info = g_ptr_array_index (f->processes, p);

      f->n_sigsys += info->end == MG_PROCESS_END_SIGNALLED && info->status == SIGSYS;
    }
  f->unavailable = mg_unavailable_collect (profile);
  if (request->catalogue != NULL)
    f->asked = mg_unavailable_find_asked (profile, request->catalogue, request->enable_metrics);
}

static void
facts_clear (Facts *f)
{
  g_clear_pointer (&f->processes, g_ptr_array_unref);
  g_clear_pointer (&f->programs, g_ptr_array_unref);
  g_clear_pointer (&f->events, g_ptr_array_unref);
  g_clear_pointer (&f->plugin_errors, g_ptr_array_unref);
  g_clear_pointer (&f->metric_errors, g_ptr_array_unref);
  g_clear_pointer (&f->unavailable, g_ptr_array_unref);
  g_clear_pointer (&f->asked, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Facts, facts_clear)

static const MgProcessInfo *
process_of (const Facts *f, guint p)
{
  return g_ptr_array_index (f->processes, p);
}

/* One line of @lines, formatted. */
G_GNUC_PRINTF (2, 3) static void
add (GPtrArray *lines, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (lines, g_strdup_vprintf (format, args));
  va_end (args);
}

/* @lines as a NULL-terminated array of its strings, @lines freed. */
static char **
to_strv (GPtrArray *lines)
{
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}

/* --verbose: every plugin problem in full, then every metric error. */
static char **
describe_details (const Facts *f)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new ();
  guint n_processes = f->processes->len;

  for (guint i = 0; i < f->unavailable->len; i++)
    {
      const MgUnavailable *entry = g_ptr_array_index (f->unavailable, i);

      add (lines, ngettext ("metrograph: plugin %s (%s): %s (in %u of %u process)\n",
                            "metrograph: plugin %s (%s): %s (in %u of %u processes)\n",
                            n_processes),
           entry->source_id, entry->library != NULL ? entry->library : "?", entry->message,
           entry->processes, n_processes);
    }
  for (guint i = 0; i < f->metric_errors->len; i++)
    {
      const MgMetricError *e = g_ptr_array_index (f->metric_errors, i);
      g_autofree char *who = e->process >= 0 && (guint) e->process < n_processes
                               ? g_strdup_printf ("%d", process_of (f, (guint) e->process)->pid)
                               : g_strdup ("?");

      add (lines, ngettext ("metrograph: metric %s: %s (%u time, in process %s)\n",
                            "metrograph: metric %s: %s (%u times, in process %s)\n",
                            MAX (e->count, 1)),
           e->metric_id, e->message != NULL ? e->message : "", MAX (e->count, 1), who);
    }
  return to_strv (g_steal_pointer (&lines));
}

/* One line: "Energy (no RAPL), MPI (not an MPI program)". */
static char *
list_unavailable (const Facts *f)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < f->unavailable->len; i++)
    {
      const MgUnavailable *entry = g_ptr_array_index (f->unavailable, i);

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
list_metric_errors (const Facts *f, guint *n_ids)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < f->metric_errors->len; i++)
    {
      const MgMetricError *e = g_ptr_array_index (f->metric_errors, i);

      if (!g_hash_table_add (seen, e->metric_id))
        continue;
      g_string_append_printf (text, "%s%s", text->len > 0 ? ", " : "", e->metric_id);
    }
  *n_ids = g_hash_table_size (seen);
  return g_string_free (text, FALSE);
}

/* By default one line for what this machine cannot measure and one for
 * metrics that failed while sampling; the details are in the profile (the
 * viewer's error list) and, with --verbose, in describe_details (). */
static char **
describe_problems (const Facts *f)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new ();
  g_autofree char *failed = NULL;
  guint n_failed = 0;

  if (f->unavailable->len > 0)
    {
      g_autofree char *listed = list_unavailable (f);

      add (lines, _("metrograph: not available here: %s; --verbose or the viewer "
                    "says more\n"),
           listed);
    }
  failed = list_metric_errors (f, &n_failed);
  if (n_failed > 0)
    add (lines, ngettext ("metrograph: %u metric failed while sampling: %s; --verbose or the "
                          "viewer's error list says more\n",
                          "metrograph: %u metrics failed while sampling: %s; --verbose or the "
                          "viewer's error list says more\n",
                          n_failed),
         n_failed, failed);
  return to_strv (g_steal_pointer (&lines));
}

/* The processes that had event @first's kind and message, from @first on,
 * in order; their events are marked in @said. */
static GArray *
same_event_pids (const Facts *f, guint first, gboolean *said)
{
  const MgProcessEvent *e = g_ptr_array_index (f->events, first);
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (int));

  for (guint i = first; i < f->events->len; i++)
    {
      const MgProcessEvent *other = g_ptr_array_index (f->events, i);

      if (said[i] || other->kind != e->kind || other->process < 0
          || (guint) other->process >= f->processes->len
          || g_strcmp0 (other->message, e->message) != 0)
        continue;
      said[i] = TRUE;
      g_array_append_val (pids, process_of (f, (guint) other->process)->pid);
    }
  return pids;
}

/* "4711", or "4711, 4712, 4713, …" for more than three. */
static char *
list_pids (GArray *pids)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < pids->len && i < 3; i++)
    g_string_append_printf (text, "%s%d", i > 0 ? ", " : "", g_array_index (pids, int, i));
  if (pids->len > 3)
    g_string_append (text, ", …");
  return g_string_free (text, FALSE);
}

/* What ended a process's recording or its plugins early: always said,
 * since they explain where values stop. Crashed and hung plugins,
 * recordings stopped (a full disk), records that could not be read. The
 * same event in several processes is one line: a verdict a fork child
 * inherits with its parent's plugin (a hung getter's) was said once for
 * each of a shell's 130 later children. */
static void
add_run_problems (GPtrArray *lines, const Facts *f)
{
  g_autofree gboolean *said = g_new0 (gboolean, f->events->len + 1);

  for (guint i = 0; i < f->events->len; i++)
    {
      const MgProcessEvent *e = g_ptr_array_index (f->events, i);
      const char *message = e->message != NULL ? e->message : "?";
      g_autoptr (GArray) pids = NULL;
      g_autofree char *listed = NULL;

      if (said[i] || e->process < 0 || (guint) e->process >= f->processes->len
          || (e->kind != MG_EVENT_PLUGIN_FAULT && e->kind != MG_EVENT_RECORDING_STOPPED))
        continue;
      pids = same_event_pids (f, i, said);
      listed = list_pids (pids);
      if (e->kind == MG_EVENT_PLUGIN_FAULT && pids->len == 1)
        /* Translators: a process id, then the plugin and what happened to it, e.g. "energy.src
         * crashed in energy_value with SIGSEGV at sample 20; its metrics stop there" */
        add (lines, _("metrograph: process %s: plugin %s\n"), listed, message);
      else if (e->kind == MG_EVENT_PLUGIN_FAULT)
        /* Translators: how many processes, their ids (e.g. "4711, 4712, 4713, …"), then the
         * plugin and what happened to it, as above */
        add (lines, ngettext ("metrograph: %u process (%s): plugin %s\n",
                              "metrograph: %u processes (%s): plugin %s\n", pids->len),
             pids->len, listed, message);
      else if (pids->len == 1)
        /* Translators: a process id, then why, e.g. "cannot allocate record …: No space left
         * on device" */
        add (lines, _("metrograph: process %s stopped recording: %s\n"), listed, message);
      else
        /* Translators: how many processes, their ids, then why, as above */
        add (lines, ngettext ("metrograph: %u process (%s) stopped recording: %s\n",
                              "metrograph: %u processes (%s) stopped recording: %s\n",
                              pids->len),
             pids->len, listed, message);
    }
  for (guint i = 0; i < f->plugin_errors->len; i++)
    {
      const MgPluginError *e = g_ptr_array_index (f->plugin_errors, i);

      /* A record that could not be read names its file in place of a library. */
      if (e->source_id == NULL)
        add (lines, "metrograph: %s\n", e->message != NULL ? e->message : "?");
    }
}

/* How many processes ran which programs (those of the first few, by the
 * program each became), and how many helpers: "1 process (true (via
 * env))", "2 processes (mg-cli-workload) and 2 helper processes". */
static char *
describe_processes (const Facts *f)
{
  guint n = f->processes->len - f->n_helpers;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autofree char *joined = NULL;
  g_autofree char *counted = NULL;
  gboolean more = FALSE;

  for (guint p = 0; p < f->processes->len && !more; p++)
    {
      const char *name = g_ptr_array_index (f->programs, p);

      if (process_of (f, p)->helper
          || g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL))
        continue;
      if (names->len == 3)
        more = TRUE;
      else
        g_ptr_array_add (names, (gpointer) name);
    }
  g_ptr_array_add (names, NULL);
  joined = g_strjoinv (", ", (char **) names->pdata);
  /* Translators: how many processes, then the programs they ran, e.g. "2 processes
   * (mg-cli-workload)" */
  counted = g_strdup_printf (ngettext ("%u process (%s%s)", "%u processes (%s%s)", n), n, joined,
                             more ? ", …" : "");
  if (f->n_helpers == 0)
    return g_steal_pointer (&counted);
  /* Translators: the processes, then how many helpers, e.g. "1 process (python3) and 78
   * helper processes" */
  return g_strdup_printf (ngettext ("%s and %u helper process", "%s and %u helper processes",
                                    f->n_helpers),
                          counted, f->n_helpers);
}

/* How much source text the profile carries (mg-profile-code.h), and how
 * many files that hold sampled lines it could not keep (the report names
 * them). */
static void
add_sources (GPtrArray *lines, const Facts *f)
{
  guint kept = f->n_sources;
  guint left = f->n_source_omissions;

  if (f->source_limit == 0)
    return;
  g_autofree char *size = g_format_size_full (f->sources_size, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *kept_text = g_strdup_printf (
    ngettext ("the profile keeps the source text of %u file (%s)",
              "the profile keeps the source text of %u files (%s)", kept), kept, size);
  if (left == 0)
    add (lines, "metrograph: %s\n", kept_text);
  else
    /* Translators: %s is "the profile keeps the source text of N files (SIZE)" */
    add (lines, ngettext ("metrograph: %s; %u file with sampled lines is left out "
                          "(metrograph --report names it)\n",
                          "metrograph: %s; %u files with sampled lines are left out "
                          "(metrograph --report names them)\n", left),
         kept_text, left);
}

/* How many call-stack samples were taken, and what became of those that
 * are not in the profile's stacks: a process that exited took its last
 * ones into its last window, so it lost them to a full table; a killed
 * process, or one still running at the merge (a daemon), has those since
 * its last round in no window, most often the reason. */
static void
add_stacks (GPtrArray *lines, const Facts *f)
{
  guint64 taken = f->stacks_taken;
  guint64 lost = f->stacks_lost;
  guint aside = f->stacks_aside;

  if (f->n_stack_processes == 0)
    return;
  if (lost == 0)
    add (lines, ngettext ("metrograph: %lu call-stack sample\n",
                          "metrograph: %lu call-stack samples\n", taken),
         (unsigned long) taken);
  else if (f->stacks_lost_unended == 0)
    /* Translators: samples taken, then how many of them are not in the stacks */
    add (lines, ngettext ("metrograph: %lu call-stack sample, %lu of them not stored (the "
                          "stack table was full)\n",
                          "metrograph: %lu call-stack samples, %lu of them not stored (the "
                          "stack table was full)\n", taken),
         (unsigned long) taken, (unsigned long) lost);
  else
    /* Translators: samples taken, then how many of them are not in the stacks */
    add (lines, ngettext ("metrograph: %lu call-stack sample, %lu of them not stored (taken "
                          "after the last round of a process that was killed or still "
                          "running, or the stack table was full)\n",
                          "metrograph: %lu call-stack samples, %lu of them not stored (taken "
                          "after the last round of a process that was killed or still "
                          "running, or the stack table was full)\n", taken),
         (unsigned long) taken, (unsigned long) lost);
  add_sources (lines, f);
  /* A handler of the program's, or SIG_IGN (set by it, or inherited over
   * an exec): the record says only that the stacks stepped aside. */
  if (aside > 0)
    add (lines, ngettext ("metrograph: call stacks stopped in %u process: it handles or ignores "
                          "the sampler's signal (SIGRTMAX-3) itself\n",
                          "metrograph: call stacks stopped in %u processes: they handle or "
                          "ignore the sampler's signal (SIGRTMAX-3) themselves\n", aside),
         aside);
  if (f->stacks_failed > 0)
    add (lines, ngettext ("metrograph: call stacks failed in %u process: its timers could not be "
                          "made (a soft RLIMIT_SIGPENDING below 256, which they would take from "
                          "it, or no memory); METROGRAPH_SAMPLER_VERBOSE=1 says which\n",
                          "metrograph: call stacks failed in %u processes: their timers could "
                          "not be made (a soft RLIMIT_SIGPENDING below 256, which they would "
                          "take from them, or no memory); METROGRAPH_SAMPLER_VERBOSE=1 says "
                          "which\n", f->stacks_failed),
         f->stacks_failed);
}

/* Whether a child of process p (same host, started in its life) failed. */
static gboolean
child_failed (const Facts *f, guint p)
{
  const MgProcessInfo *parent = process_of (f, p);

  for (guint c = 0; c < f->processes->len; c++)
    {
      const MgProcessInfo *child = process_of (f, c);

      if (c != p && child->ppid == parent->pid && g_strcmp0 (child->host, parent->host) == 0
          && child->start_s >= parent->start_s && child->start_s <= parent->end_s
          && mg_process_info_failed (child))
        return TRUE;
    }
  return FALSE;
}

/* A run that failed after a process of it did (a build stopped by a
 * compile error): the first to fail of those that failed themselves, no
 * child of theirs before them (the cc1, not its driver and the makes that
 * failed after it), so that it is found among hundreds. */
static void
add_first_failure (GPtrArray *lines, const Facts *f)
{
  const MgProcessInfo *first = NULL;
  guint n_failed = 0;
  int first_index = -1;
  g_autofree char *how = NULL;

  if (f->info->exit_status == 0)
    return;
  for (guint p = 0; p < f->processes->len; p++)
    {
      const MgProcessInfo *info = process_of (f, p);

      if (!mg_process_info_failed (info))
        continue;
      n_failed++;
      if (!child_failed (f, p) && (first == NULL || info->end_s < first->end_s))
        first = info, first_index = (int) p;
    }
  /* The program alone: its exit status says it all. */
  if (first == NULL || n_failed < 2)
    return;
  if (first->end == MG_PROCESS_END_SIGNALLED)
    /* Translators: how a process ended: the signal's number and name */
    how = g_strdup_printf (_("killed by signal %d (%s)"), first->status, g_strsignal (first->status));
  else
    how = g_strdup_printf (_("exited with status %d"), first->status);
  /* Translators: how many processes failed, then the program of the first, its
   * pid, how it ended ("exited with status 1") and when, e.g. "metrograph: 4
   * processes failed; the first, after no child of its own: cc1 (process 4242)
   * exited with status 1 at 0.36 s" */
  add (lines, ngettext ("metrograph: %u process failed; the first, after no child of its own: "
                        "%s (process %d) %s at %.2f s\n",
                        "metrograph: %u processes failed; the first, after no child of its own: "
                        "%s (process %d) %s at %.2f s\n", n_failed),
       n_failed, (const char *) g_ptr_array_index (f->programs, first_index), first->pid, how,
       first->end_s);
}

/* Where the profile is and what it holds, then what ended a process's
 * recording early. */
static char **
describe_run (const Facts *f, const MgRunSummaryRequest *request)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new ();
  const MgRunInfo *info = f->info;
  g_autofree char *processes = describe_processes (f);
  g_autofree char *nodes = g_strdup_printf (ngettext ("%u node", "%u nodes", info->n_nodes),
                                            info->n_nodes);
  g_autofree char *samples = g_strdup_printf (ngettext ("%u sample", "%u samples",
                                                        f->n_windows),
                                              f->n_windows);

  add (lines, _("metrograph: profile written to %s\n"), request->output);
  /* Translators: the processes, the nodes, then how many samples, e.g. "1 process
   * (app) on 1 node, 151 samples (20 ms apart at the end)…" */
  add (lines, _("metrograph: %s on %s, %s (%.3g ms apart at the end), %.1f s, "
                "exit status %d\n"),
       processes, nodes, samples, info->interval_end_ms, info->duration_s, info->exit_status);
  if (request->stopped_after_s > 0)
    add (lines, _("metrograph: the program was ended after %g s (--stop-after)\n"),
         request->stopped_after_s);
  if (f->precision != MG_PROCESS_PRECISION_EXACT)
    /* Translators: the keyword of --process-precision (not translated) */
    add (lines, _("metrograph: each process's own series are stored at %s precision "
                  "(--process-precision), off by at most 2^-24 of each value; the aggregates "
                  "across processes are exact\n"),
         f->precision_keyword);
  if (f->n_unsampled > 0)
    /* Translators: how many processes, then the sampling interval in ms */
    add (lines, ngettext ("metrograph: %u process ended before its first sample (%.3g ms): "
                          "counted, with its start, end and status, but no metrics\n",
                          "metrograph: %u processes ended before their first sample (%.3g ms): "
                          "counted, with their start, end and status, but no metrics\n",
                          f->n_unsampled),
         f->n_unsampled, f->info->interval_start_ms);
  /* A daemon: the run ends with the program, not with its descendants.
   * A descendant ended by a raw exit_group leaves its record open too: the
   * launcher closes only the program's own (mg-record-finish.h). */
  if (f->n_unended > 0)
    add (lines, ngettext ("metrograph: %u process had not ended when the run did (still "
                          "running, as a daemon is, killed without trace by SIGKILL, or ended "
                          "by the exit_group system call itself, as Go programs do): recorded "
                          "up to its last sample\n",
                          "metrograph: %u processes had not ended when the run did (still "
                          "running, as daemons are, killed without trace by SIGKILL, or ended "
                          "by the exit_group system call itself, as Go programs do): recorded "
                          "up to their last sample\n", f->n_unended),
         f->n_unended);
  add_first_failure (lines, f);
  /* The sampler keeps out of a filter's way where it can see one, but not
   * from a filter installed in the middle of its round (sampler.md, "A
   * seccomp filter"): the user compares with an unprofiled run. */
  if (f->n_sigsys > 0)
    add (lines, ngettext ("metrograph: %u process was killed by SIGSYS, a system call refused by "
                          "a seccomp filter: if it is not killed so without Metrograph, the "
                          "filter refused a call of the sampler's (docs/sampler.md, \"A seccomp "
                          "filter\")\n",
                          "metrograph: %u processes were killed by SIGSYS, a system call refused "
                          "by a seccomp filter: if they are not killed so without Metrograph, "
                          "the filter refused a call of the sampler's (docs/sampler.md, \"A "
                          "seccomp filter\")\n", f->n_sigsys),
         f->n_sigsys);
  add_stacks (lines, f);
  add_run_problems (lines, f);
  return to_strv (g_steal_pointer (&lines));
}

/* --select-ranks: the selection and the ranks the profile holds. */
static char *
describe_rank_selection (const Facts *f, const char *select_ranks)
{
  g_autoptr (GArray) ranks = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree char *sampled = NULL;

  for (guint p = 0; p < f->processes->len; p++)
    {
      int rank = process_of (f, p)->rank;

      if (rank >= 0)
        g_array_append_val (ranks, rank);
    }
  sampled = mg_rank_list_from_ranks ((const int *) (void *) ranks->data, ranks->len);
  return g_strdup_printf (_("metrograph: ranks selected: %s (--select-ranks); ranks in the "
                            "profile: %s\n"),
                          select_ranks, *sampled != '\0' ? sampled : _("none"));
}

/* --enable-metrics asked for these and got nothing for want of their
 * plugin (mg_unavailable_find_asked ()): one message each. */
static char **
describe_unmeasured (const Facts *f)
{
  g_autoptr (GPtrArray) messages = g_ptr_array_new ();

  for (guint i = 0; f->asked != NULL && i < f->asked->len; i++)
    {
      const MgUnavailableAsked *one = g_ptr_array_index (f->asked, i);

      add (messages, _("--enable-metrics=%s: not available on this machine: %s (the "
                       "profile is written without it)"),
           one->asked, one->message);
    }
  return to_strv (g_steal_pointer (&messages));
}

MgRunSummary *
mg_run_summary_new (MgProfile *profile, const MgRunSummaryRequest *request)
{
  MgRunSummary *self = g_new0 (MgRunSummary, 1);
  g_auto (Facts) facts = { 0 };

  read_facts (&facts, profile, request);
  self->lines = describe_run (&facts, request);
  self->brief = describe_problems (&facts);
  self->details = describe_details (&facts);
  if (request->select_ranks != NULL)
    self->ranks = describe_rank_selection (&facts, request->select_ranks);
  self->unmeasured = describe_unmeasured (&facts);
  return self;
}

void
mg_run_summary_free (MgRunSummary *self)
{
  if (self == NULL)
    return;
  g_strfreev (self->lines);
  g_strfreev (self->brief);
  g_strfreev (self->details);
  g_free (self->ranks);
  g_strfreev (self->unmeasured);
  g_free (self);
}
