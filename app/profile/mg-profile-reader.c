/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A payload into a profile. Reading trusts nothing: every length, count
 * and index is checked before the profile points into the payload. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mg-process-block.h"
#include "mg-profile-header.h"
#include "mg-profile-internal.h"
#include "mg-profile-layout.h"
#include "mg-profile-reader.h"
#include "mg-stack-pack.h"
#include "mg-stack-set.h"

static char *
dup_maybe (GVariant *maybe)
{
  g_autoptr(GVariant) inner = g_variant_get_maybe (maybe);

  return inner != NULL ? g_variant_dup_string (inner, NULL) : NULL;
}

gboolean
mg_profile_corrupt (GError **error, const char *name, const char *what)
{
  g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT,
               _("The profile “%s” is damaged (%s) and cannot be opened."), name, what);
  return FALSE;
}

static gboolean
enum_ok (gint32 value, gint32 last)
{
  return value >= 0 && value <= last;
}

/* A name stored as bytes (format 5): its bytes and the NUL that ends
 * them, no other NUL. NULL when it is not so. */
static char *
dup_bytes (GVariant *ay)
{
  gsize n = 0;
  const char *data = g_variant_get_fixed_array (ay, &n, 1);

  if (n == 0 || data[n - 1] != '\0' || memchr (data, '\0', n - 1) != NULL)
    return NULL;
  return g_strndup (data, n - 1);
}

/* A text member: "s" before format 5, bytes from it. */
static gboolean
dup_name (GVariant *v, guint32 version, char **out)
{
  if (version < 5)
    {
      *out = g_variant_dup_string (v, NULL);
      return TRUE;
    }
  *out = dup_bytes (v);
  return *out != NULL;
}

static gboolean
dup_maybe_name (GVariant *maybe, guint32 version, char **out)
{
  g_autoptr(GVariant) inner = g_variant_get_maybe (maybe);

  *out = NULL;
  return inner == NULL || dup_name (inner, version, out);
}

static gboolean
dup_names (GVariant *array, guint32 version, char ***out)
{
  gsize n = g_variant_n_children (array);
  char **names = g_new0 (char *, n + 1);

  *out = names;
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (array, i);

      if (!dup_name (child, version, &names[i]))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_run (MgProfile *self, GVariant *v, guint32 version)
{
  MgRunInfo *r = &self->run;
  g_autoptr(GVariant) argv = g_variant_get_child_value (v, 0);
  g_autoptr(GVariant) folder = g_variant_get_child_value (v, 1);
  g_autoptr(GVariant) hosts = g_variant_get_child_value (v, 2);
  gint64 start;

  if (!dup_names (argv, version, &r->argv) || !dup_names (hosts, version, &r->hosts)
      || !dup_name (folder, version, &r->working_dir))
    return FALSE;
  g_variant_get_child (v, 3, "x", &start);
  r->start_time_us = start;
  g_variant_get_child (v, 4, "d", &r->duration_s);
  g_variant_get_child (v, 5, "u", &r->n_processes);
  g_variant_get_child (v, 6, "u", &r->n_nodes);
  g_variant_get_child (v, 7, "d", &r->interval_start_ms);
  g_variant_get_child (v, 8, "d", &r->interval_end_ms);
  g_variant_get_child (v, 9, "u", &r->max_samples);
  g_variant_get_child (v, 10, "i", &r->exit_status);
  g_variant_get_child (v, 11, "s", &r->metrograph_version);
  return TRUE;
}

static MgMetricDef *
read_metric (GVariant *v)
{
  MgMetricDef *d = g_new0 (MgMetricDef, 1);
  GVariant *f[30];
  gint32 enabled, data_type, domain, type;

  for (guint i = 0; i < G_N_ELEMENTS (f); i++)
    f[i] = g_variant_get_child_value (v, i);
  d->id = g_variant_dup_string (f[0], NULL);
  enabled = g_variant_get_int32 (f[1]);
  d->units = g_variant_dup_string (f[2], NULL);
  data_type = g_variant_get_int32 (f[3]);
  domain = g_variant_get_int32 (f[4]);
  d->one_per_node = g_variant_get_boolean (f[5]);
  d->backfill = g_variant_get_boolean (f[6]);
  d->sparse = g_variant_get_boolean (f[7]);
  d->source_ref = dup_maybe (f[8]);
  d->function_name = dup_maybe (f[9]);
  d->divide_by_sample_time = g_variant_get_boolean (f[10]);
  d->custom_data = dup_maybe (f[11]);
  d->config_env = dup_maybe (f[12]);
  d->display_name = dup_maybe (f[13]);
  d->description = dup_maybe (f[14]);
  d->type_name = dup_maybe (f[15]);
  type = g_variant_get_int32 (f[16]);
  d->colour_spec = dup_maybe (f[17]);
  d->has_colour = g_variant_get_boolean (f[18]);
  g_variant_get (f[19], "(dddd)", &d->colour.r, &d->colour.g, &d->colour.b, &d->colour.a);
  d->display_factor = g_variant_get_double (f[20]);
  d->display_units = dup_maybe (f[21]);
  d->decimal_places = g_variant_get_int32 (f[22]);
  d->auto_display_factor = g_variant_get_boolean (f[23]);
  d->accumulate = g_variant_get_boolean (f[24]);
  d->normalize_percentages = g_variant_get_boolean (f[25]);
  d->clamp_percentages = g_variant_get_boolean (f[26]);
  d->integral_name = dup_maybe (f[27]);
  d->file = dup_maybe (f[28]);
  d->line = g_variant_get_int32 (f[29]);
  for (guint i = 0; i < G_N_ELEMENTS (f); i++)
    g_variant_unref (f[i]);

  if (!enum_ok (enabled, MG_ENABLED_NEVER) || !enum_ok (data_type, MG_DATA_TYPE_DOUBLE)
      || !enum_ok (domain, MG_DOMAIN_SINGLE_VALUE) || !enum_ok (type, MG_METRIC_TYPE_OTHER)
      || d->id[0] == '\0')
    {
      mg_metric_def_free (d);
      return NULL;
    }
  d->enabled = enabled;
  d->data_type = data_type;
  d->domain = domain;
  d->type = type;
  return d;
}

static MgMetricGroup *
read_group (GVariant *v)
{
  MgMetricGroup *g = g_new0 (MgMetricGroup, 1);
  g_autoptr(GVariant) name = g_variant_get_child_value (v, 1);
  g_autoptr(GVariant) description = g_variant_get_child_value (v, 2);
  g_autoptr(GVariant) refs = g_variant_get_child_value (v, 3);
  g_autoptr(GVariant) file = g_variant_get_child_value (v, 4);
  gsize n;
  const char **strv;

  g_variant_get_child (v, 0, "s", &g->id);
  g->display_name = dup_maybe (name);
  g->description = dup_maybe (description);
  g->metric_refs = g_ptr_array_new_with_free_func (g_free);
  strv = g_variant_get_strv (refs, &n);
  for (gsize i = 0; i < n; i++)
    g_ptr_array_add (g->metric_refs, g_strdup (strv[i]));
  g_free (strv);
  g->file = dup_maybe (file);
  g_variant_get_child (v, 5, "i", &g->line);
  return g;
}

/* A fixed array child of the payload, checked against the length it must
 * have; points into the payload (kept alive by self->backing). */
static const void *
fixed_child (GVariant *payload, guint index, gsize expected, gsize element)
{
  g_autoptr(GVariant) child = g_variant_get_child_value (payload, index);
  gsize n = 0;
  const void *data = g_variant_get_fixed_array (child, &n, element);

  if (n != expected)
    return NULL;
  return expected > 0 ? data : "";
}

/* Format 3: each process's block stays packed (and, read in place, on
 * disk) until the process is asked for; n and the reported flags are
 * outside it, so the shape is checked now. */
static gboolean
read_packed_processes (MgProfile *self, GVariant *series, const char *name, GError **error)
{
  guint n_metrics = self->metrics->len;
  gsize n_proc = self->processes->len;

  self->packed = g_new0 (MgPackedProcess, MAX (n_proc, 1));
  for (gsize p = 0; p < n_proc; p++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (series, p);
      g_autoptr(GVariant) block = g_variant_get_child_value (v, 1);
      MgPackedProcess *packed = &self->packed[p];
      guint32 n;

      g_variant_get_child (v, 0, "u", &n);
      packed->block = g_variant_get_fixed_array (block, &packed->size, 1);
      packed->reported = fixed_child (v, 2, n_metrics, sizeof (guint8));
      if (packed->reported == NULL
          || !mg_process_block_plausible (packed->size, n, n_metrics, packed->reported))
        return mg_profile_corrupt (error, name, "process series length");
      self->process_n[p] = n;
    }
  return TRUE;
}

static gboolean
read_processes (MgProfile *self, GVariant *payload, guint32 version, const char *name,
                GError **error)
{
  g_autoptr(GVariant) list = g_variant_get_child_value (payload, 8);
  g_autoptr(GVariant) series = g_variant_get_child_value (payload, 9);
  guint n_metrics = self->metrics->len;
  gsize n_proc = g_variant_n_children (list);

  if (g_variant_n_children (series) != n_proc || self->run.n_processes != n_proc)
    return mg_profile_corrupt (error, name, "process count");

  for (gsize p = 0; p < n_proc; p++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (list, p);
      g_autoptr(GVariant) host = g_variant_get_child_value (v, 3);
      g_autoptr(GVariant) program = g_variant_get_child_value (v, 4);
      MgProcessInfo info = { 0 };
      gint32 end;

      g_variant_get_child (v, 0, "i", &info.pid);
      g_variant_get_child (v, 1, "i", &info.ppid);
      g_variant_get_child (v, 2, "i", &info.rank);
      if (!dup_maybe_name (host, version, &info.host)
          || !dup_maybe_name (program, version, &info.program))
        {
          g_free (info.host);
          return mg_profile_corrupt (error, name, "process name");
        }
      g_variant_get_child (v, 5, "d", &info.start_s);
      g_variant_get_child (v, 6, "d", &info.end_s);
      g_variant_get_child (v, 7, "i", &end);
      g_variant_get_child (v, 8, "i", &info.status);
      g_variant_get_child (v, 9, "b", &info.node_leader);
      info.end = enum_ok (end, MG_PROCESS_END_EXECED) ? end : MG_PROCESS_END_UNKNOWN;
      g_array_append_val (self->processes, info);
      if (!enum_ok (end, MG_PROCESS_END_EXECED))
        return mg_profile_corrupt (error, name, "process end");
    }

  self->process_series = g_new0 (MgProcessSeries, MAX (n_proc * n_metrics, 1));
  self->process_n = g_new0 (gsize, MAX (n_proc, 1));
  if (version >= 3)
    return read_packed_processes (self, series, name, error);
  for (gsize p = 0; p < n_proc; p++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (series, p);
      g_autoptr(GVariant) times_v = g_variant_get_child_value (v, 0);
      gsize n = 0;
      const double *times = g_variant_get_fixed_array (times_v, &n, sizeof (double));
      const double *values = fixed_child (v, 1, n * n_metrics * MG_PROCESS_SERIES_N, sizeof (double));
      const guint8 *reported = fixed_child (v, 2, n_metrics, sizeof (guint8));

      if (values == NULL || reported == NULL)
        return mg_profile_corrupt (error, name, "process series length");
      self->process_n[p] = n;
      for (guint m = 0; m < n_metrics; m++)
        {
          MgProcessSeries *s = &self->process_series[p * n_metrics + m];
          const double *block = values + (gsize) m * MG_PROCESS_SERIES_N * n;

          *s = (MgProcessSeries) { reported[m] ? n : 0, times, block, block + n, block + 2 * n };
        }
    }
  return TRUE;
}

static gboolean
process_ok (MgProfile *self, int process)
{
  return process >= -1 && process < (int) self->processes->len;
}

static gboolean
read_lists (MgProfile *self, GVariant *payload, const char *name, GError **error)
{
  g_autoptr(GVariant) plugin_errors = g_variant_get_child_value (payload, 10);
  g_autoptr(GVariant) metric_errors = g_variant_get_child_value (payload, 11);
  g_autoptr(GVariant) events = g_variant_get_child_value (payload, 12);

  for (gsize i = 0; i < g_variant_n_children (plugin_errors); i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (plugin_errors, i);
      g_autoptr(GVariant) source = g_variant_get_child_value (v, 1);
      g_autoptr(GVariant) library = g_variant_get_child_value (v, 2);
      g_autoptr(GVariant) message = g_variant_get_child_value (v, 4);
      MgPluginError e = { 0 };

      g_variant_get_child (v, 0, "i", &e.process);
      g_variant_get_child (v, 3, "i", &e.code);
      e.source_id = dup_maybe (source);
      e.library = dup_maybe (library);
      e.message = dup_maybe (message);
      g_array_append_val (self->plugin_errors, e);
      if (!process_ok (self, e.process))
        return mg_profile_corrupt (error, name, "plugin error's process");
    }
  for (gsize i = 0; i < g_variant_n_children (metric_errors); i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (metric_errors, i);
      g_autoptr(GVariant) id = g_variant_get_child_value (v, 1);
      g_autoptr(GVariant) message = g_variant_get_child_value (v, 3);
      MgMetricError e = { 0 };

      g_variant_get_child (v, 0, "i", &e.process);
      g_variant_get_child (v, 2, "i", &e.code);
      g_variant_get_child (v, 4, "u", &e.count);
      g_variant_get_child (v, 5, "d", &e.first_s);
      g_variant_get_child (v, 6, "d", &e.last_s);
      e.metric_id = dup_maybe (id);
      e.message = dup_maybe (message);
      g_array_append_val (self->metric_errors, e);
      if (!process_ok (self, e.process))
        return mg_profile_corrupt (error, name, "metric error's process");
    }
  for (gsize i = 0; i < g_variant_n_children (events); i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (events, i);
      g_autoptr(GVariant) message = g_variant_get_child_value (v, 4);
      MgProcessEvent e = { 0 };
      gint32 kind;

      g_variant_get_child (v, 0, "i", &e.process);
      g_variant_get_child (v, 1, "d", &e.time_s);
      g_variant_get_child (v, 2, "i", &kind);
      g_variant_get_child (v, 3, "i", &e.status);
      e.message = dup_maybe (message);
      e.kind = enum_ok (kind, MG_EVENT_LAST) ? kind : MG_EVENT_START;
      g_array_append_val (self->events, e);
      if (!process_ok (self, e.process) || !enum_ok (kind, MG_EVENT_LAST))
        return mg_profile_corrupt (error, name, "process event");
    }
  return TRUE;
}

/* Format 2: the program's output, within its bound. */
static gboolean
read_output (MgProfile *self, GVariant *payload, guint32 version, const char *name,
             GError **error)
{
  g_autoptr(GVariant) output = g_variant_get_child_value (payload, MG_PAYLOAD_OUTPUT_MEMBER);
  g_autoptr(GVariant) text = g_variant_get_child_value (output, 0);

  if (!dup_maybe_name (text, version, &self->run.output))
    return mg_profile_corrupt (error, name, "program output");
  g_variant_get_child (output, 1, "t", &self->run.output_cut);
  if (self->run.output != NULL && strlen (self->run.output) > MG_PROFILE_OUTPUT_MAX)
    return mg_profile_corrupt (error, name, "program output longer than its bound");
  return TRUE;
}

/* Format 4: what the processes' blocks were stored at (older: exact). */
static gboolean
read_precision (MgProfile *self, GVariant *payload, const char *name, GError **error)
{
  guint32 precision;

  g_variant_get_child (payload, MG_PAYLOAD_PRECISION_MEMBER, "u", &precision);
  if (precision > MG_PROCESS_PRECISION_LAST)
    return mg_profile_corrupt (error, name, "process precision");
  self->packed_precision = self->process_precision = precision;
  return TRUE;
}

/* Every window is a finite interval (start <= end) within
 * MG_PROFILE_MAX_TIME_S of the run's start: a NaN or -1e308 would be drawn
 * nowhere and exported as null. */
static gboolean
windows_ok (const double *starts, const double *ends, gsize n)
{
  for (gsize w = 0; w < n; w++)
    if (!(fabs (starts[w]) <= MG_PROFILE_MAX_TIME_S && fabs (ends[w]) <= MG_PROFILE_MAX_TIME_S
          && starts[w] <= ends[w]))
      return FALSE;
  return TRUE;
}

/* Format 6: the call stacks, every index checked (mg-stack-set.h); format
 * 7 stores them packed (mg-stack-pack.h): what is cheap is checked now, the
 * rest is decoded on first use (mg-profile-stacks.c). */
static gboolean
read_stacks (MgProfile *self, GVariant *payload, guint32 version, const char *name,
             GError **error)
{
  g_autoptr(GVariant) stacks = g_variant_get_child_value (payload, MG_PAYLOAD_STACKS_MEMBER);

  if (version >= 7)
    {
      if (!mg_stack_packed_check (stacks, self->processes->len))
        return mg_profile_corrupt (error, name, "call stacks");
      self->stacks_packed = g_variant_ref (stacks);
      self->stacks_pending = g_steal_pointer (&stacks);
      return TRUE;
    }

  if (!mg_stack_set_check_payload (stacks, self->processes->len))
    return mg_profile_corrupt (error, name, "call stacks");
  g_clear_pointer (&self->stacks, g_variant_unref);
  self->stacks = g_steal_pointer (&stacks);
  return TRUE;
}

/* Format 7: the frames' names and source text (mg-profile-code.h), every
 * index checked against the stacks read before. */
static gboolean
read_code (MgProfile *self, GVariant *payload, const char *name, GError **error)
{
  g_autoptr(GVariant) code = g_variant_get_child_value (payload, MG_PAYLOAD_CODE_MEMBER);

  if (!mg_profile_set_code (self, code))
    return mg_profile_corrupt (error, name, "frame names or source text");
  return TRUE;
}

/* Format 8: the threads' ids and names, every process index checked. */
static gboolean
read_threads (MgProfile *self, GVariant *payload, const char *name, GError **error)
{
  g_autoptr(GVariant) threads = g_variant_get_child_value (payload, MG_PAYLOAD_THREADS_MEMBER);

  if (!mg_profile_set_threads (self, threads))
    return mg_profile_corrupt (error, name, "thread names");
  return TRUE;
}

static gboolean
read_payload (MgProfile *self, GVariant *payload, guint32 version, const char *name,
              GError **error)
{
  g_autoptr(GVariant) run = g_variant_get_child_value (payload, 0);
  g_autoptr(GVariant) metrics = g_variant_get_child_value (payload, 1);
  g_autoptr(GVariant) groups = g_variant_get_child_value (payload, 2);
  g_autoptr(GVariant) singles = g_variant_get_child_value (payload, 7);
  g_autoptr(GVariant) starts = g_variant_get_child_value (payload, 3);
  const double *values;
  const gint32 *indices;
  gsize n_metrics, n_win = 0;

  if (!read_run (self, run, version))
    return mg_profile_corrupt (error, name, "run's names");
  n_metrics = g_variant_n_children (metrics);
  for (gsize m = 0; m < n_metrics; m++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (metrics, m);
      MgMetricDef *def = read_metric (v);

      if (def == NULL)
        return mg_profile_corrupt (error, name, "metric definition");
      g_ptr_array_add (self->metrics, def);
    }
  for (gsize i = 0; i < g_variant_n_children (groups); i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (groups, i);

      g_ptr_array_add (self->groups, read_group (v));
    }

  self->window_starts = g_variant_get_fixed_array (starts, &n_win, sizeof (double));
  self->window_ends = fixed_child (payload, 4, n_win, sizeof (double));
  if (self->window_ends == NULL || n_win > G_MAXUINT)
    return mg_profile_corrupt (error, name, "window count");
  if (!windows_ok (self->window_starts, self->window_ends, n_win))
    return mg_profile_corrupt (error, name, "sample window times");
  self->n_windows = n_win;
  values = fixed_child (payload, 5, n_metrics * MG_SERIES_N_DOUBLES * n_win, sizeof (double));
  indices = fixed_child (payload, 6, n_metrics * MG_SERIES_N_INDICES * n_win, sizeof (gint32));
  if (values == NULL || indices == NULL || g_variant_n_children (singles) != n_metrics)
    return mg_profile_corrupt (error, name, "aggregate series length");
  mg_profile_set_aggregates (self, values, indices);

  self->singles = g_new0 (MgSingleValue, MAX (n_metrics, 1));
  for (gsize m = 0; m < n_metrics; m++)
    {
      MgSingleValue *s = &self->singles[m];

      g_variant_get_child (singles, m, "(dddddu)", &s->min, &s->max, &s->mean, &s->var,
                           &s->sum, &s->count);
    }

  if (g_variant_n_children (payload) > MG_PAYLOAD_OUTPUT_MEMBER
      && !read_output (self, payload, version, name, error))
    return FALSE;
  if (g_variant_n_children (payload) > MG_PAYLOAD_PRECISION_MEMBER
      && !read_precision (self, payload, name, error))
    return FALSE;
  if (!read_processes (self, payload, version, name, error))
    return FALSE;
  for (gsize i = 0; i < n_metrics * MG_SERIES_N_INDICES * n_win; i++)
    if (!process_ok (self, indices[i]))
      return mg_profile_corrupt (error, name, "process index in a series");
  if (g_variant_n_children (payload) > MG_PAYLOAD_STACKS_MEMBER
      && !read_stacks (self, payload, version, name, error))
    return FALSE;
  if (g_variant_n_children (payload) > MG_PAYLOAD_CODE_MEMBER
      && !read_code (self, payload, name, error))
    return FALSE;
  if (g_variant_n_children (payload) > MG_PAYLOAD_THREADS_MEMBER
      && !read_threads (self, payload, name, error))
    return FALSE;
  return read_lists (self, payload, name, error);
}

/* Every part but the big numeric arrays must be in normal form (valid
 * strings, consistent framing). GVariant reads non-normal data safely, and
 * the arrays' lengths are checked one by one, so checking the arrays'
 * hundreds of megabytes element by element would only cost time. The
 * packed stacks (format 7) are such numbers but for their module names:
 * checked byte by byte, their 22 MB at 1024 ranks took most of the open. */
static gboolean
small_parts_normal (GVariant *payload, guint32 version)
{
  static const guint parts[] = { 0, 1, 2, 7, 8, 10, 11, 12, MG_PAYLOAD_OUTPUT_MEMBER,
                                 MG_PAYLOAD_STACKS_MEMBER, MG_PAYLOAD_CODE_MEMBER,
                                 MG_PAYLOAD_THREADS_MEMBER };

  for (guint i = 0; i < G_N_ELEMENTS (parts) && parts[i] < g_variant_n_children (payload); i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (payload, parts[i]);

      if (parts[i] == MG_PAYLOAD_STACKS_MEMBER && version >= 7)
        {
          g_autoptr(GVariant) modules = g_variant_get_child_value (child, 0);

          if (!g_variant_is_normal_form (modules))
            return FALSE;
        }
      else if (!g_variant_is_normal_form (child))
        return FALSE;
    }
  return TRUE;
}

MgProfile *
mg_profile_parse_payload (GBytes *payload_bytes, guint32 version, const char *name, GError **error)
{
  g_autoptr(MgProfile) self = NULL;
  g_autoptr(GVariant) payload = NULL;

  payload = g_variant_ref_sink (g_variant_new_from_bytes (mg_profile_payload_type (version),
                                                          payload_bytes, FALSE));
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (payload);

      g_variant_unref (payload);
      payload = swapped;
    }
  if (!small_parts_normal (payload, version))
    {
      mg_profile_corrupt (error, name, "malformed data");
      return NULL;
    }

  self = mg_profile_new_empty ();
  self->backing = g_variant_get_data_as_bytes (payload);
  self->file_name = g_strdup (name);
  if (version < MG_PROFILE_VERSION_STEPS_MAY_BE_WORK)
    self->helper_rule = MG_HELPER_RULE_STEPS_HELPERS;
  if (!read_payload (self, payload, version, name, error))
    return NULL;
  return g_steal_pointer (&self);
}
