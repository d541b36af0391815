/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The merge: list the records, order the processes, align their clocks,
 * then feed one record at a time to the profile builder. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "format/mg-bounded-mean.h"
#include "format/mg-plan-keywords.h"
#include "mg-merge.h"
#include "mg-node-summary.h"
#include "mg-profile-builder.h"
#include "mg-record-folder.h"
#include "mg-record-reader.h"
#include "mg-slot-combiner.h"
#include "mg-stack-builder.h"

/* What pass 1 learns from each record's header. */
typedef struct RecordEntry {
  char *path;
  char host[MG_RECORD_HOST_LEN];
  int rank;
  int pid;
  gint64 start_mono_ns;
  gint64 start_real_ns;
  gint64 offset_ns;            /* its start relative to the run's start */
  guint32 state;               /* MgRecordState at the merge */
  struct RecordEntry *next;    /* the record of the image it exec'd into */
  gboolean continues;          /* a later image of a process: merged with the first */
  MgNodeSummary *summary;      /* the node summary holding it, NULL: a record file */
  guint index;                 /* its process in the summary */
} RecordEntry;

static void
record_entry_free (RecordEntry *entry)
{
  g_free (entry->path);
  g_clear_pointer (&entry->summary, mg_node_summary_unref);
  g_free (entry);
}

static int
compare_entries (gconstpointer a, gconstpointer b)
{
  const RecordEntry *x = *(const RecordEntry *const *) a;
  const RecordEntry *y = *(const RecordEntry *const *) b;
  guint rx = x->rank >= 0 ? (guint) x->rank : G_MAXUINT;
  guint ry = y->rank >= 0 ? (guint) y->rank : G_MAXUINT;
  int c;

  /* MPI ranks first in rank order, then by start time, host and pid. */
  if (rx != ry)
    return rx < ry ? -1 : 1;
  if (x->offset_ns != y->offset_ns)
    return x->offset_ns < y->offset_ns ? -1 : 1;
  c = strcmp (x->host, y->host);
  if (c != 0)
    return c;
  return (x->pid > y->pid) - (x->pid < y->pid);
}

static RecordEntry *
new_entry (char *path, const MgRecordHeader *header)
{
  RecordEntry *entry = g_new0 (RecordEntry, 1);

  entry->path = path;
  memcpy (entry->host, header->host, sizeof entry->host);
  entry->rank = header->rank;
  entry->pid = header->pid;
  entry->start_mono_ns = header->start_mono_ns;
  entry->start_real_ns = header->start_real_ns;
  entry->state = header->state;
  return entry;
}

/* A record or node summary that cannot be read: a front-end plugin error
 * naming it, and the merge goes on without it. The first one's message is
 * kept in *first, the error when nothing could be read. */
static void
add_unreadable (MgProfileBuilder *builder, char **first, const char *path, const char *message)
{
  MgPluginError bad = { -1, NULL, (char *) path, 0, (char *) message };

  mg_profile_builder_add_plugin_error (builder, &bad);
  if (*first == NULL)
    *first = g_strdup (message);
}

/* The processes of a node summary, each an entry as its record would be. */
static void
list_summary (GPtrArray *entries, const char *path, const MgMergeInput *input,
              MgProfileBuilder *builder, char **unreadable)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(MgNodeSummary) summary = mg_node_summary_open (path, &local);

  if (summary == NULL)
    {
      add_unreadable (builder, unreadable, path, local->message);
      return;
    }
  for (guint i = 0; i < mg_node_summary_get_n_processes (summary); i++)
    {
      const MgRecordHeader *header = mg_node_summary_get_header (summary, i);
      RecordEntry *entry;

      if (input->run_id != NULL && strcmp (header->run_id, input->run_id) != 0)
        continue;
      entry = new_entry (g_strdup (path), header);
      entry->summary = mg_node_summary_ref (summary);
      entry->index = i;
      g_ptr_array_add (entries, entry);
    }
}

/* Pass 1: the headers of every record of the run (damaged ones:
 * add_unreadable). */
static GPtrArray *
list_records (const char *record_dir, const MgMergeInput *input, MgProfileBuilder *builder,
              char **unreadable, GError **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) record_entry_free);
  g_autoptr(GPtrArray) names = mg_record_folder_list (record_dir,
                                                      MG_RECORD_FOLDER_RECORDS | MG_RECORD_FOLDER_SUMMARIES,
                                                      error);

  if (names == NULL)
    return NULL;

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (record_dir, g_ptr_array_index (names, i), NULL);
      g_autoptr(GError) local = NULL;
      MgRecordHeader header;

      if (g_str_has_suffix (path, MG_NODE_SUMMARY_SUFFIX))
        {
          list_summary (entries, path, input, builder, unreadable);
          continue;
        }
      if (!mg_record_file_read_header (path, &header, &local))
        {
          add_unreadable (builder, unreadable, path, local->message);
          continue;
        }
      header.run_id[sizeof header.run_id - 1] = '\0';
      header.host[sizeof header.host - 1] = '\0';
      if (input->run_id != NULL && strcmp (header.run_id, input->run_id) != 0)
        continue;
      g_ptr_array_add (entries, new_entry (g_steal_pointer (&path), &header));
    }
  return g_steal_pointer (&entries);
}

static char *
process_key (const RecordEntry *e)
{
  return g_strdup_printf ("%s %d %" G_GINT64_FORMAT, e->host, e->pid, e->start_mono_ns);
}

/* A process both in a record and in its node's summary (the summary was
 * written, the record's removal did not happen): the record counts. */
static void
drop_summarised_twice (GPtrArray *entries)
{
  g_autoptr (GHashTable) records = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < entries->len; i++)
    {
      RecordEntry *e = g_ptr_array_index (entries, i);

      if (e->summary == NULL)
        g_hash_table_add (records, process_key (e));
    }
  for (guint i = entries->len; i-- > 0;)
    {
      RecordEntry *e = g_ptr_array_index (entries, i);
      g_autofree char *key = e->summary != NULL ? process_key (e) : NULL;

      if (key != NULL && g_hash_table_contains (records, key))
        g_ptr_array_remove_index (entries, i);
    }
}

/* The run starts with its earliest record. On that record's host the
 * monotonic clock is exact; records of other hosts align by wall clock. */
static void
align_clocks (GPtrArray *entries)
{
  RecordEntry *first = NULL;

  for (guint i = 0; i < entries->len; i++)
    {
      RecordEntry *e = g_ptr_array_index (entries, i);

      if (first == NULL || e->start_real_ns < first->start_real_ns)
        first = e;
    }
  for (guint i = 0; i < entries->len; i++)
    {
      RecordEntry *e = g_ptr_array_index (entries, i);

      if (strcmp (e->host, first->host) == 0)
        e->offset_ns = e->start_mono_ns - first->start_mono_ns;
      else
        e->offset_ns = e->start_real_ns - first->start_real_ns;
    }
}

static int
compare_pid_start (gconstpointer a, gconstpointer b)
{
  const RecordEntry *x = *(const RecordEntry *const *) a;
  const RecordEntry *y = *(const RecordEntry *const *) b;
  int c = strcmp (x->host, y->host);

  if (c != 0)
    return c;
  if (x->pid != y->pid)
    return (x->pid > y->pid) - (x->pid < y->pid);
  return (x->start_mono_ns > y->start_mono_ns) - (x->start_mono_ns < y->start_mono_ns);
}

/* An exec keeps the process: the record a process closed at exec (EXECED)
 * continues in the next record of the same pid on the same host (the new
 * image's, or the same image's after a failed exec). */
static void
link_execs (GPtrArray *entries)
{
  /* Not a copy: that would free the entries with it. */
  g_autoptr(GPtrArray) by_pid = g_ptr_array_sized_new (entries->len);

  for (guint i = 0; i < entries->len; i++)
    g_ptr_array_add (by_pid, g_ptr_array_index (entries, i));
  g_ptr_array_sort (by_pid, compare_pid_start);
  for (guint i = 0; i + 1 < by_pid->len; i++)
    {
      RecordEntry *e = g_ptr_array_index (by_pid, i);
      RecordEntry *next = g_ptr_array_index (by_pid, i + 1);

      if (e->state == MG_RECORD_STATE_EXECED && next->pid == e->pid
          && strcmp (next->host, e->host) == 0)
        {
          e->next = next;
          next->continues = TRUE;
        }
    }
}

typedef struct {
  MgProfileBuilder *builder;
  GPtrArray *metrics;          /* MgMetricDef*: the input's */
  GHashTable *by_id;           /* metric id → profile index + 1 */
  guint n_metrics;
  gboolean *single;            /* per profile metric: single_value domain */
  double *mins, *maxs, *means; /* one sample's values, per profile metric */
  guint64 n_samples;           /* over all records */
  double interval_start_ms, interval_end_ms;
  guint max_samples;
  guint max_process_samples;   /* 0: every slot */
  guint hang_intervals;        /* a getter call this many intervals old is hung */
  MgLiveMerge *live;           /* the input's */
  /* The current record's slots combined (with max_process_samples), its
   * MgRecordFile then holding only the slots the combiner had not seen. */
  const MgSlotCombiner *combiner;
  char **unreadable;           /* add_unreadable's first message */
  MgProcessInfo first;         /* the current process's first image: pid, start */
  MgStackBuilder *stacks;      /* the records' call stacks */
} MergeState;

static double
to_seconds (const MgRecordFile *r, const RecordEntry *e, gint64 mono_ns)
{
  return (double) (mono_ns - r->header.start_mono_ns + e->offset_ns) / 1e9;
}

/* The end of the last window in which a metric of plugin i had a value (the
 * process's start if none): where its metrics stop. */
static double
plugin_last_value_s (MergeState *st, const MgRecordFile *r, const RecordEntry *e, guint i)
{
  const MgRecordHeader *h = &r->header;

  if (st->combiner != NULL)
    {
      guint latest = 0;
      gint64 end_ns = h->start_mono_ns;

      for (guint m = 0; m < h->n_metrics; m++)
        {
          gint64 t;
          guint slot = mg_slot_combiner_get_last_slot (st->combiner, m, &t);

          if (r->metrics[m].plugin_index == i && slot > latest)
            {
              latest = slot;
              end_ns = t;
            }
        }
      return to_seconds (r, e, end_ns);
    }
  for (guint k = r->n_samples; k-- > 0;)
    {
      const MgRecordValue *values = mg_record_file_get_values (r, k);

      for (guint m = 0; m < h->n_metrics; m++)
        if (r->metrics[m].plugin_index == i && values[m].count > 0)
          return to_seconds (r, e, mg_record_file_get_sample (r, k)->t_end_ns);
    }
  return to_seconds (r, e, h->start_mono_ns);
}

/* The end of the record's last slot; FALSE if it has none. */
static gboolean
last_slot_end (MergeState *st, const MgRecordFile *r, gint64 *t_end_ns)
{
  gint64 t_start_ns;
  guint n;

  if (st->combiner != NULL)
    {
      n = mg_slot_combiner_get_n_buckets (st->combiner);
      if (n > 0)
        mg_slot_combiner_get_window (st->combiner, n - 1, &t_start_ns, t_end_ns);
      return n > 0;
    }
  if (r->n_samples > 0)
    *t_end_ns = mg_record_file_get_sample (r, r->n_samples - 1)->t_end_ns;
  return r->n_samples > 0;
}

/* A plugin that crashed or hung while the process ran: an event where its
 * metrics stop, naming it. */
static void
add_plugin_fault (MergeState *st, const MgRecordFile *r, const RecordEntry *e, guint p, guint i)
{
  const MgRecordPlugin *plugin = &r->plugins[i];
  g_autofree char *message = g_strdup_printf ("%s %s", plugin->source_id, plugin->error);
  MgProcessEvent fault = { (int) p, plugin_last_value_s (st, r, e, i), MG_EVENT_PLUGIN_FAULT,
                           plugin->state == MG_PLUGIN_STATE_CRASHED ? plugin->error_code : 0,
                           message };

  mg_profile_builder_add_event (st->builder, &fault);
}

/* The getter that metric i of the record runs: its definition's function,
 * else the metric's id. */
static const char *
getter_name (MergeState *st, const MgRecordFile *r, guint i)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (st->by_id, r->metrics[i].id));
  const MgMetricDef *def = index > 0 ? g_ptr_array_index (st->metrics, index - 1) : NULL;

  return def != NULL && def->function_name != NULL ? def->function_name : r->metrics[i].id;
}

/* Getter calls that have not returned (the record's call_since_ms) for at
 * least the hang bound: seen while the process runs (its record on this
 * host is still open: the live view), or when its record was ended for it
 * (killed). A hang the sampler saw at exit is its plugin's state instead. */
static void
add_hung_calls (MergeState *st, const MgRecordFile *r, const RecordEntry *e, guint p)
{
  const MgRecordHeader *h = &r->header;
  gint64 bound_ns = (gint64) st->hang_intervals * (gint64) MIN (h->interval_start_ns, G_MAXINT32);
  gint64 now_ns;

  if (h->end_mono_ns != 0)
    now_ns = h->end_mono_ns;
  else if (h->state == MG_RECORD_STATE_RUNNING && g_strcmp0 (h->host, g_get_host_name ()) == 0)
    now_ns = g_get_monotonic_time () * 1000;
  else
    return;
  for (guint i = 0; i < h->n_metrics; i++)
    {
      const MgRecordMetric *metric = &r->metrics[i];
      const MgRecordPlugin *plugin = NULL;
      gint64 since_ns = h->start_mono_ns + ((gint64) metric->call_since_ms - 1) * 1000000;
      g_autofree char *message = NULL;
      MgProcessEvent hung = { (int) p, 0, MG_EVENT_PLUGIN_FAULT, 0, NULL };

      /* A record without a plugin table (it could not be allocated) names
       * no plugin: no call of it ran. Found by fuzzing. */
      if (metric->call_since_ms == 0 || metric->plugin_index >= h->n_plugins)
        continue;
      plugin = &r->plugins[metric->plugin_index];
      if (plugin->state != MG_PLUGIN_STATE_ACTIVE || now_ns - since_ns < bound_ns)
        continue;
      hung.time_s = to_seconds (r, e, since_ns);
      /* Translators: the plugin's source id, its getter function, when the call began (in the
       * run) and how long ago, e.g. "energy.src hung in energy_value since 1.2 s (no return
       * for 3.4 s)" */
      hung.message = message = g_strdup_printf (_("%s hung in %s since %.3g s (no return for "
                                                  "%.3g s)"),
                                                plugin->source_id, getter_name (st, r, i),
                                                hung.time_s, (double) (now_ns - since_ns) / 1e9);
      mg_profile_builder_add_event (st->builder, &hung);
    }
}

static void
add_process_facts (MergeState *st, const MgRecordFile *r, const RecordEntry *e, guint p,
                   double end_s)
{
  const MgRecordHeader *h = &r->header;
  /* The image it starts with (or exec'd into): the process's images, in
   * order, are its start's and its execs' messages. */
  MgProcessEvent start = { (int) p, to_seconds (r, e, h->start_mono_ns),
                           e->continues ? MG_EVENT_EXEC : MG_EVENT_START, 0,
                           (char *) h->program };
  MgProcessEvent end = { (int) p, end_s, MG_EVENT_EXIT, h->end_status, NULL };
  gboolean unrecorded = FALSE;
  g_autofree char *message = NULL;

  mg_profile_builder_add_event (st->builder, &start);
  switch ((MgRecordState) h->state)
    {
    case MG_RECORD_STATE_EXITED:
      break;
    case MG_RECORD_STATE_SIGNALLED:
      end.kind = MG_EVENT_SIGNAL;
      break;
    case MG_RECORD_STATE_EXECED:
      end.kind = MG_EVENT_EXEC;
      break;
    case MG_RECORD_STATE_RUNNING:
    default:
      /* A record that holds only why it could not be made: the process
       * went on unrecorded, its end unknown, and its stop says why. */
      if ((h->flags & MG_RECORD_FLAG_STOPPED) && h->capacity == 0)
        {
          unrecorded = TRUE;
          break;
        }
      /* No end was written: killed without a chance to say so. */
      end.kind = MG_EVENT_SIGNAL;
      end.status = 0;
      end.message = message = g_strdup (_("The process ended without a trace (killed with "
                                          "SIGKILL, or still running at the merge)."));
      break;
    }
  /* An exec whose new image was recorded is that image's start. */
  if (e->next == NULL && !unrecorded)
    mg_profile_builder_add_event (st->builder, &end);

  if (h->flags & MG_RECORD_FLAG_STOPPED)
    {
      MgProcessEvent stopped = { (int) p, end_s, MG_EVENT_RECORDING_STOPPED,
                                 h->record_error_code, (char *) h->record_error };

      gint64 t_end_ns;

      if (last_slot_end (st, r, &t_end_ns))
        stopped.time_s = to_seconds (r, e, t_end_ns);
      mg_profile_builder_add_event (st->builder, &stopped);
    }

  for (guint i = 0; i < h->n_plugins; i++)
    {
      const MgRecordPlugin *plugin = &r->plugins[i];
      MgPluginError pe = { (int) p, (char *) plugin->source_id, (char *) plugin->library,
                           plugin->error_code, (char *) plugin->error };

      if (plugin->state == MG_PLUGIN_STATE_LOAD_FAILED
          || plugin->state == MG_PLUGIN_STATE_INIT_FAILED)
        mg_profile_builder_add_plugin_error (st->builder, &pe);
      else if (plugin->state == MG_PLUGIN_STATE_CRASHED || plugin->state == MG_PLUGIN_STATE_HUNG)
        add_plugin_fault (st, r, e, p, i);
    }
  add_hung_calls (st, r, e, p);
  for (guint i = 0; i < h->n_metrics; i++)
    {
      const MgRecordMetric *metric = &r->metrics[i];
      MgMetricError me = { (int) p, (char *) metric->id, metric->error_code,
                           (char *) metric->error, metric->error_count,
                           to_seconds (r, e, metric->first_error_ns),
                           to_seconds (r, e, metric->last_error_ns) };

      if (metric->error_count > 0)
        mg_profile_builder_add_metric_error (st->builder, &me);
    }
}

/* Every slot as one sample of process p. */
static void
add_samples (MergeState *st, const MgRecordFile *r, const RecordEntry *e, const int *map, guint p,
             double *last)
{
  const MgRecordHeader *h = &r->header;

  for (guint k = 0; k < r->n_samples; k++)
    {
      const MgRecordSample *sample = mg_record_file_get_sample (r, k);
      const MgRecordValue *values = mg_record_file_get_values (r, k);

      for (guint m = 0; m < st->n_metrics; m++)
        st->mins[m] = st->maxs[m] = st->means[m] = NAN;
      for (guint i = 0; i < h->n_metrics; i++)
        {
          int m = map[i];

          if (m < 0 || values[i].count == 0)
            continue;
          st->mins[m] = values[i].min;
          st->maxs[m] = values[i].max;
          st->means[m] = values[i].mean;
          if (st->single[m])
            last[m] = values[i].mean;
        }
      mg_profile_builder_add_sample (st->builder, p, to_seconds (r, e, sample->t_start_ns),
                                     to_seconds (r, e, sample->t_end_ns), st->mins, st->maxs,
                                     st->means);
    }
}

/* The combined slots as the samples of process p. */
static void
add_combined_samples (MergeState *st, const MgSlotCombiner *c, const MgRecordFile *r,
                      const RecordEntry *e, const int *map, guint p, double *last)
{
  const MgRecordHeader *h = &r->header;
  guint previous = 0;
  guint b = 0;

  /* A live refresh: the samples that did not change come from the last profile. */
  if (st->live != NULL)
    {
      guint unchanged = mg_live_merge_count_unchanged (st->live, e->path, e->offset_ns, p,
                                                       &previous);

      b = mg_profile_builder_reuse_samples (st->builder, p, previous, unchanged);
    }
  for (; b < mg_slot_combiner_get_n_buckets (c); b++)
    {
      gint64 t_start_ns, t_end_ns;

      for (guint m = 0; m < st->n_metrics; m++)
        st->mins[m] = st->maxs[m] = st->means[m] = NAN;
      for (guint i = 0; i < h->n_metrics; i++)
        if (map[i] >= 0)
          mg_slot_combiner_get_value (c, b, i, &st->mins[map[i]], &st->maxs[map[i]],
                                      &st->means[map[i]]);
      mg_slot_combiner_get_window (c, b, &t_start_ns, &t_end_ns);
      mg_profile_builder_add_sample (st->builder, p, to_seconds (r, e, t_start_ns),
                                     to_seconds (r, e, t_end_ns), st->mins, st->maxs, st->means);
    }
  for (guint i = 0; i < h->n_metrics; i++)
    if (map[i] >= 0 && st->single[map[i]] && !isnan (mg_slot_combiner_get_last_mean (c, i)))
      last[map[i]] = mg_slot_combiner_get_last_mean (c, i);
}

static MgRecordFile *
read_whole (const RecordEntry *e, GError **error)
{
  if (e->summary != NULL)
    return mg_node_summary_read_process (e->summary, e->index, error);
  return mg_record_file_read (e->path, error);
}

/* The record with its slots fed to a combiner: the one kept by the live
 * merge (record files only: a summary's processes have ended), else a new
 * one (*owned) fed every slot. */
static MgRecordFile *
read_combined (MergeState *st, const RecordEntry *e, MgSlotCombiner **combiner,
               MgSlotCombiner **owned, GError **error)
{
  MgRecordFile *r;

  if (st->live != NULL && e->summary == NULL)
    r = mg_live_merge_read (st->live, e->path, st->max_process_samples, combiner, error);
  else
    {
      r = read_whole (e, error);
      if (r != NULL)
        *combiner = *owned = mg_slot_combiner_new (r->header.n_metrics, st->max_process_samples);
    }
  for (guint k = 0; r != NULL && k < r->n_samples; k++)
    mg_slot_combiner_add (*combiner, mg_record_file_get_sample (r, k),
                          mg_record_file_get_values (r, k));
  return r;
}

/* Pass 2 for one record: its process (*process, G_MAXUINT: a new one; the
 * process's later images add to it), samples, single values and errors. */
static gboolean
merge_record (MergeState *st, const RecordEntry *e, guint *process, GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(MgSlotCombiner) owned = NULL;
  MgSlotCombiner *combiner = NULL;
  g_autoptr(MgRecordFile) r = st->max_process_samples > 0
                                ? read_combined (st, e, &combiner, &owned, &local)
                                : read_whole (e, &local);
  g_autofree int *map = NULL;       /* record metric → profile metric, -1 */
  g_autofree double *last = NULL;   /* last value of single-value metrics */
  MgProcessInfo info = { 0 };
  const MgRecordHeader *h;
  gint64 t_end_ns;
  double end_s;
  guint n_slots;
  guint p;

  if (r == NULL)
    {
      add_unreadable (st->builder, st->unreadable, e->path, local->message);
      return TRUE;
    }
  h = &r->header;
  st->combiner = combiner;
  n_slots = combiner != NULL ? mg_slot_combiner_get_n_slots (combiner) : r->n_samples;
  map = g_new (int, MAX (h->n_metrics, 1));
  for (guint i = 0; i < h->n_metrics; i++)
    map[i] = GPOINTER_TO_INT (g_hash_table_lookup (st->by_id, r->metrics[i].id)) - 1;

  end_s = to_seconds (r, e, h->start_mono_ns);
  if (last_slot_end (st, r, &t_end_ns))
    end_s = MAX (end_s, to_seconds (r, e, t_end_ns));
  if (h->end_mono_ns != 0)
    end_s = MAX (end_s, to_seconds (r, e, h->end_mono_ns));

  if (*process == G_MAXUINT)
    {
      st->first.pid = h->pid;
      st->first.ppid = h->ppid;
      st->first.rank = h->rank;
      st->first.start_s = to_seconds (r, e, h->start_mono_ns);
      st->first.node_leader = FALSE;
    }
  info.pid = st->first.pid;
  info.ppid = st->first.ppid;
  /* An image that set an MPI rank's variables and exec'd the rank. */
  info.rank = h->rank >= 0 ? h->rank : st->first.rank;
  st->first.rank = info.rank;
  info.host = (char *) h->host;
  info.program = (char *) h->program;
  info.start_s = st->first.start_s;
  info.end_s = end_s;
  info.end = h->state == MG_RECORD_STATE_EXITED ? MG_PROCESS_END_EXITED
             : h->state == MG_RECORD_STATE_SIGNALLED ? MG_PROCESS_END_SIGNALLED
             : h->state == MG_RECORD_STATE_EXECED ? MG_PROCESS_END_EXECED
             : MG_PROCESS_END_UNKNOWN;
  info.status = h->end_status;
  info.node_leader = st->first.node_leader || (h->flags & MG_RECORD_FLAG_NODE_LEADER) != 0;
  st->first.node_leader = info.node_leader;
  if (*process == G_MAXUINT)
    *process = mg_profile_builder_add_process (st->builder, &info);
  else
    mg_profile_builder_update_process (st->builder, *process, &info);
  p = *process;
  mg_profile_builder_reserve (st->builder, p,
                              combiner != NULL ? mg_slot_combiner_get_n_buckets (combiner)
                                               : r->n_samples);

  last = g_new (double, MAX (st->n_metrics, 1));
  for (guint m = 0; m < st->n_metrics; m++)
    last[m] = NAN;
  if (combiner != NULL)
    add_combined_samples (st, combiner, r, e, map, p, last);
  else
    add_samples (st, r, e, map, p, last);
  for (guint m = 0; m < st->n_metrics; m++)
    if (st->single[m] && !isnan (last[m]))
      mg_profile_builder_set_single_value (st->builder, p, m, last[m]);

  st->n_samples += n_slots;
  if (st->max_samples == 0)
    st->interval_start_ms = h->interval_start_ns / 1e6;
  st->interval_end_ms = MAX (st->interval_end_ms, h->interval_ns / 1e6);
  st->max_samples = MAX (st->max_samples, h->capacity);
  add_process_facts (st, r, e, p, end_s);
  if (st->live != NULL && e->summary == NULL)
    {
      /* A live read from a later slot: the stacks of the slots before
       * too, at the times the reads before saw. */
      guint n_times;
      const gint64 *times = mg_live_merge_get_slot_times (st->live, e->path, &n_times);
      mg_stack_builder_add_record_times (st->stacks, p, r, r->header.start_mono_ns - e->offset_ns,
                                         times, n_times);
    }
  else
    mg_stack_builder_add_record (st->stacks, p, r, r->header.start_mono_ns - e->offset_ns);
  st->combiner = NULL;
  return TRUE;
}

/* Pass 2 for one process: its first record and those of the images it
 * exec'd into. */
static gboolean
merge_process (MergeState *st, const RecordEntry *first, GError **error)
{
  guint p = G_MAXUINT;

  for (const RecordEntry *e = first; e != NULL; e = e->next)
    if (!merge_record (st, e, &p, error))
      return FALSE;
  /* Only this process's samples in memory at a time, besides the packed. */
  if (p != G_MAXUINT && st->max_process_samples == 0)
    mg_profile_builder_pack (st->builder, p);
  return TRUE;
}

/* No sample to merge: because what was recorded could not be read (the
 * first such problem, when *unreadable), or because nothing was. */
static void
set_no_samples (GError **error, const char *record_dir, const char *unreadable)
{
  g_autofree char *name = g_filename_display_name (record_dir);

  if (unreadable != NULL)
    g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_FAILED,
                 _("No record could be read: %s"), unreadable);
  else
    g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NO_SAMPLES,
                 _("No samples were recorded (records in “%s”). The program may be statically "
                   "linked or setuid, so the sampler could not be preloaded into it; it may have "
                   "cleared LD_PRELOAD; or it may have exited before the first sample (try a "
                   "shorter --interval)."), name);
}

static const char *
lookup_environ (const char *name, void *data)
{
  return g_getenv (name);
}

/* The sampler's bound: the plan's hang_intervals is not written by the
 * front ends, so both take METROGRAPH_HANG_INTERVALS, else the default. */
static guint
hang_intervals (void)
{
  return (guint) CLAMP (mg_plan_number_default (MG_PLAN_KEY_HANG_INTERVALS, lookup_environ, NULL),
                        1, G_MAXINT32);
}

MgProfile *
mg_merge_records (const char *record_dir, const MgMergeInput *input, GError **error)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree gboolean *single = NULL;
  g_autofree double *values = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *unreadable = NULL;
  g_autoptr(MgStackBuilder) stacks = mg_stack_builder_new ();
  MergeState st = { 0 };
  MgProfile *profile;
  guint n_metrics;

  g_return_val_if_fail (record_dir != NULL, NULL);
  g_return_val_if_fail (input != NULL && input->metrics != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint i = 0; i < input->n_run_errors; i++)
    mg_profile_builder_add_plugin_error (builder, &input->run_errors[i]);
  entries = list_records (record_dir, input, builder, &unreadable, error);
  if (entries == NULL)
    return NULL;
  if (entries->len == 0)
    {
      set_no_samples (error, record_dir, unreadable);
      return NULL;
    }
  drop_summarised_twice (entries);
  align_clocks (entries);
  g_ptr_array_sort (entries, compare_entries);
  link_execs (entries);

  n_metrics = input->metrics->len;
  single = g_new0 (gboolean, MAX (n_metrics, 1));
  for (guint m = 0; m < n_metrics; m++)
    {
      const MgMetricDef *def = g_ptr_array_index (input->metrics, m);

      mg_profile_builder_add_metric (builder, def);
      g_hash_table_insert (by_id, def->id, GUINT_TO_POINTER (m + 1));
      single[m] = def->domain == MG_DOMAIN_SINGLE_VALUE;
    }
  for (guint i = 0; input->groups != NULL && i < input->groups->len; i++)
    mg_profile_builder_add_group (builder, g_ptr_array_index (input->groups, i));

  /* The live view's merges: a grid that stays put as the run grows, and
   * what the previous refresh computed. */
  if (input->max_process_samples > 0)
    mg_profile_builder_set_stable_grid (builder);
  if (input->max_process_samples > 0 && input->live != NULL)
    mg_profile_builder_set_cache (builder, mg_live_merge_get_cache (input->live));
  values = g_new (double, 3 * (gsize) MAX (n_metrics, 1));
  st = (MergeState) { builder, input->metrics, by_id, n_metrics, single, values,
                      values + n_metrics, values + 2 * n_metrics, 0, 0.0, 0.0, 0,
                      input->max_process_samples, hang_intervals (), input->live, NULL,
                      &unreadable };
  st.stacks = stacks;
  for (guint i = 0; i < entries->len; i++)
    {
      const RecordEntry *e = g_ptr_array_index (entries, i);

      if (!e->continues && !merge_process (&st, e, &local))
        break;
    }
  if (local == NULL && st.n_samples == 0)
    set_no_samples (&local, record_dir, unreadable);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }

  for (guint i = 0; i < input->n_run_events; i++)
    mg_profile_builder_add_event (builder, &input->run_events[i]);
  mg_profile_builder_set_command (builder, input->argv, input->working_dir);
  mg_profile_builder_set_exit_status (builder, input->exit_status);
  mg_profile_builder_set_output (builder, input->output, input->output_cut);
  mg_profile_builder_set_interval (builder, st.interval_start_ms, st.interval_end_ms,
                                   st.max_samples);
  if (input->start_time_us != 0)
    mg_profile_builder_set_start_time (builder, input->start_time_us);
  else
    {
      gint64 earliest = G_MAXINT64;

      for (guint i = 0; i < entries->len; i++)
        earliest = MIN (earliest, ((RecordEntry *) g_ptr_array_index (entries, i))->start_real_ns);
      mg_profile_builder_set_start_time (builder, earliest / 1000);
    }
  profile = mg_profile_builder_finish (builder, input->n_windows, error);
  if (profile != NULL)
    {
      mg_profile_set_process_precision (profile, input->process_precision);
      mg_stack_builder_finish_profile (stacks, profile);
    }
  return profile;
}
