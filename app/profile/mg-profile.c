/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The profile model: an immutable GObject holding one run. Filled by
 * MgProfileBuilder or by the .mgprof loader; read through the getters. */
#include "mg-config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <glib/gi18n.h>

#include "mg-process-block.h"
#include "mg-process-images.h"
#include "mg-process-roles.h"
#include "mg-profile-internal.h"
#include "mg-stack-builder.h"

G_DEFINE_QUARK (mg-profile-error-quark, mg_profile_error)

G_DEFINE_FINAL_TYPE (MgProfile, mg_profile, G_TYPE_OBJECT)

void
mg_run_info_clear (MgRunInfo *info)
{
  g_clear_pointer (&info->argv, g_strfreev);
  g_clear_pointer (&info->working_dir, g_free);
  g_clear_pointer (&info->hosts, g_strfreev);
  g_clear_pointer (&info->metrograph_version, g_free);
  g_clear_pointer (&info->output, g_free);
}

void
mg_process_info_clear (MgProcessInfo *info)
{
  g_clear_pointer (&info->host, g_free);
  g_clear_pointer (&info->program, g_free);
}

void
mg_plugin_error_clear (MgPluginError *error)
{
  g_clear_pointer (&error->source_id, g_free);
  g_clear_pointer (&error->library, g_free);
  g_clear_pointer (&error->message, g_free);
}

GArray *
mg_plugin_errors_new (void)
{
  GArray *errors = g_array_new (FALSE, TRUE, sizeof (MgPluginError));

  g_array_set_clear_func (errors, (GDestroyNotify) mg_plugin_error_clear);
  return errors;
}

GArray *
mg_metric_errors_new (void)
{
  GArray *errors = g_array_new (FALSE, TRUE, sizeof (MgMetricError));

  g_array_set_clear_func (errors, (GDestroyNotify) mg_metric_error_clear);
  return errors;
}

GArray *
mg_process_events_new (void)
{
  GArray *events = g_array_new (FALSE, TRUE, sizeof (MgProcessEvent));

  g_array_set_clear_func (events, (GDestroyNotify) mg_process_event_clear);
  return events;
}

void
mg_metric_error_clear (MgMetricError *error)
{
  g_clear_pointer (&error->metric_id, g_free);
  g_clear_pointer (&error->message, g_free);
}

void
mg_process_event_clear (MgProcessEvent *event)
{
  g_clear_pointer (&event->message, g_free);
}

void
mg_process_info_copy_into (MgProcessInfo *dest, const MgProcessInfo *src)
{
  *dest = *src;
  dest->host = g_strdup (src->host);
  dest->program = g_strdup (src->program);
}

void
mg_plugin_error_copy_into (MgPluginError *dest, const MgPluginError *src)
{
  *dest = *src;
  dest->source_id = g_strdup (src->source_id);
  dest->library = g_strdup (src->library);
  dest->message = g_strdup (src->message);
}

void
mg_metric_error_copy_into (MgMetricError *dest, const MgMetricError *src)
{
  *dest = *src;
  dest->metric_id = g_strdup (src->metric_id);
  dest->message = g_strdup (src->message);
}

void
mg_process_event_copy_into (MgProcessEvent *dest, const MgProcessEvent *src)
{
  *dest = *src;
  dest->message = g_strdup (src->message);
}

static void
mg_profile_finalize (GObject *object)
{
  MgProfile *self = MG_PROFILE (object);

  for (guint p = 0; self->packed != NULL && p < self->processes->len; p++)
    g_free (self->packed[p].memory);
  mg_run_info_clear (&self->run);
  g_ptr_array_unref (self->metrics);
  g_ptr_array_unref (self->groups);
  g_array_unref (self->processes);
  g_array_unref (self->plugin_errors);
  g_array_unref (self->metric_errors);
  g_array_unref (self->events);
  g_free (self->series);
  g_free (self->singles);
  g_free (self->process_series);
  g_free (self->packed);
  g_clear_pointer (&self->code_index, mg_profile_code_index_free);
  g_clear_pointer (&self->code, g_variant_unref);
  g_clear_pointer (&self->stacks, g_variant_unref);
  g_clear_pointer (&self->stacks_pending, g_variant_unref);
  g_clear_pointer (&self->stacks_packed, g_variant_unref);
  g_clear_error (&self->stacks_error);
  g_mutex_clear (&self->stacks_lock);
  g_clear_pointer (&self->threads, g_variant_unref);
  g_queue_clear (&self->unpacked);
  g_mutex_clear (&self->unpack_lock);
  g_free (self->file_name);
  g_free (self->process_n);
  g_ptr_array_unref (self->blocks);
  mg_profile_source_free (self->source);
  g_clear_pointer (&self->backing, g_bytes_unref);

  G_OBJECT_CLASS (mg_profile_parent_class)->finalize (object);
}

static void
mg_profile_class_init (MgProfileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mg_profile_finalize;
}

static void
mg_profile_init (MgProfile *self)
{
  self->metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_def_free);
  self->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_group_free);
  self->processes = g_array_new (FALSE, TRUE, sizeof (MgProcessInfo));
  g_array_set_clear_func (self->processes, (GDestroyNotify) mg_process_info_clear);
  self->plugin_errors = mg_plugin_errors_new ();
  self->metric_errors = mg_metric_errors_new ();
  self->events = mg_process_events_new ();
  self->blocks = g_ptr_array_new_with_free_func (g_free);
  g_queue_init (&self->unpacked);
  g_mutex_init (&self->unpack_lock);
  self->stacks = mg_stack_payload_empty ();
  g_mutex_init (&self->stacks_lock);
  self->code = mg_profile_code_empty ();
  {
    g_autoptr (GVariant) modules = g_variant_get_child_value (self->stacks, 0);
    self->code_index = mg_profile_code_index_new (self->code, modules);
  }
  self->threads = mg_profile_threads_empty ();
}

MgProfile *
mg_profile_new_empty (void)
{
  MgProfile *self = g_object_new (MG_TYPE_PROFILE, NULL);

  self->helper_rule = MG_HELPER_RULE_CURRENT;
  return self;
}

gpointer
mg_profile_alloc_big (gsize size)
{
  const gsize huge = 2 * 1024 * 1024;
  gpointer mem = NULL;

  if (size < huge)
    return g_malloc (MAX (size, 1));
  size = (size + huge - 1) / huge * huge;
  if (posix_memalign (&mem, huge, size) != 0)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
#ifdef MADV_HUGEPAGE
  madvise (mem, size, MADV_HUGEPAGE);
#endif
  return mem;
}

gpointer
mg_profile_take_block (MgProfile *self, gpointer mem)
{
  if (mem != NULL)
    g_ptr_array_add (self->blocks, mem);
  return mem;
}

void
mg_profile_set_aggregates (MgProfile *self, const double *values, const gint32 *indices)
{
  guint n_metrics = self->metrics->len;
  gsize n = self->n_windows;

  g_free (self->series);
  self->series = g_new0 (MgSeries, MAX (n_metrics, 1));
  for (guint m = 0; m < n_metrics; m++)
    {
      const double *v = values + (gsize) m * MG_SERIES_N_DOUBLES * n;
      const gint32 *i = indices + (gsize) m * MG_SERIES_N_INDICES * n;
      MgSeries *s = &self->series[m];

      s->mins = v;
      s->maxs = v + n;
      s->means = v + 2 * n;
      s->vars = v + 3 * n;
      s->sums = v + 4 * n;
      s->min_process = i;
      s->max_process = i + n;
    }
}

const MgRunInfo *
mg_profile_get_run_info (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  return &self->run;
}

MgProcessPrecision
mg_profile_get_process_precision (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), MG_PROCESS_PRECISION_DEFAULT);
  return self->process_precision;
}

void
mg_profile_set_process_precision (MgProfile *self, MgProcessPrecision precision)
{
  g_return_if_fail (MG_IS_PROFILE (self));
  g_return_if_fail (precision <= MG_PROCESS_PRECISION_LAST);
  /* What single precision dropped cannot come back. */
  self->process_precision = self->packed != NULL ? MAX (precision, self->packed_precision)
                                                 : precision;
}

guint
mg_profile_get_n_metrics (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), 0);
  return self->metrics->len;
}

const MgMetricDef *
mg_profile_get_metric (MgProfile *self, guint metric)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  g_return_val_if_fail (metric < self->metrics->len, NULL);
  return g_ptr_array_index (self->metrics, metric);
}

int
mg_profile_find_metric (MgProfile *self, const char *id)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), -1);
  g_return_val_if_fail (id != NULL, -1);
  for (guint m = 0; m < self->metrics->len; m++)
    {
      const MgMetricDef *def = g_ptr_array_index (self->metrics, m);

      if (g_strcmp0 (def->id, id) == 0)
        return (int) m;
    }
  return -1;
}

guint
mg_profile_get_n_groups (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), 0);
  return self->groups->len;
}

const MgMetricGroup *
mg_profile_get_group (MgProfile *self, guint group)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  g_return_val_if_fail (group < self->groups->len, NULL);
  return g_ptr_array_index (self->groups, group);
}

guint
mg_profile_get_n_windows (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), 0);
  return self->n_windows;
}

const double *
mg_profile_get_window_starts (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  return self->window_starts;
}

const double *
mg_profile_get_window_ends (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  return self->window_ends;
}

static gboolean
is_single_value (MgProfile *self, guint metric)
{
  const MgMetricDef *def = g_ptr_array_index (self->metrics, metric);

  return def->domain == MG_DOMAIN_SINGLE_VALUE;
}

const MgSeries *
mg_profile_get_series (MgProfile *self, guint metric)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  g_return_val_if_fail (metric < self->metrics->len, NULL);
  if (is_single_value (self, metric))
    return NULL;
  return &self->series[metric];
}

const MgSingleValue *
mg_profile_get_single_value (MgProfile *self, guint metric)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  g_return_val_if_fail (metric < self->metrics->len, NULL);
  if (!is_single_value (self, metric))
    return NULL;
  return &self->singles[metric];
}

guint
mg_profile_get_n_processes (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), 0);
  return self->processes->len;
}

/* The profile and its CPU time metric, for the helper rule. */
typedef struct {
  MgProfile *self;
  guint metric;
} ProfileCpu;

/* A process's own CPU seconds (mg-process-roles.h), from its series of
 * the CPU time metric, read for the rule's candidates only (a copy: the
 * processes kept decoded stay as they are); NaN when it cannot be read. */
static double
profile_cpu_seconds (guint p, gpointer data)
{
  ProfileCpu *cpu = data;
  g_autofree MgProcessSeries *series = mg_profile_dup_process_series (cpu->self, p, cpu->metric,
                                                                      NULL);

  if (series == NULL || series->n == 0)
    return NAN;
  return mg_process_roles_cpu_seconds (series->times, series->means, series->n,
                                       g_array_index (cpu->self->processes, MgProcessInfo,
                                                      p).start_s);
}

/* A loaded profile's helpers are found when first asked for; a merged
 * one's by its builder. Profiles merged before execs were kept name no
 * images and have none: their aggregates counted every process. */
static void
ensure_roles (MgProfile *self)
{
  if (g_once_init_enter (&self->roles_known))
    {
      guint n = self->processes->len;

      if (n > 0 && mg_profile_has_process_images (self))
        {
          g_autofree gboolean *helper = g_new (gboolean, n);
          int metric = mg_process_roles_find_cpu_metric (self->metrics);
          ProfileCpu cpu = { self, (guint) MAX (metric, 0) };

          mg_process_roles_find_helpers ((const MgProcessInfo *) (void *) self->processes->data,
                                         n, self->run.interval_start_ms, self->helper_rule,
                                         metric >= 0 ? profile_cpu_seconds : NULL, &cpu,
                                         helper);
          for (guint p = 0; p < n; p++)
            g_array_index (self->processes, MgProcessInfo, p).helper = helper[p];
        }
      g_once_init_leave (&self->roles_known, 1);
    }
}

gboolean
mg_process_info_failed (const MgProcessInfo *info)
{
  return (info->end == MG_PROCESS_END_EXITED && info->status != 0)
         || info->end == MG_PROCESS_END_SIGNALLED;
}

const MgProcessInfo *
mg_profile_get_process (MgProfile *self, guint process)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  g_return_val_if_fail (process < self->processes->len, NULL);
  ensure_roles (self);
  return &g_array_index (self->processes, MgProcessInfo, process);
}

guint
mg_profile_get_n_helpers (MgProfile *self)
{
  guint n = 0;

  g_return_val_if_fail (MG_IS_PROFILE (self), 0);
  ensure_roles (self);
  for (guint p = 0; p < self->processes->len; p++)
    n += g_array_index (self->processes, MgProcessInfo, p).helper;
  return n;
}

/* True when the process has no value of any metric: it ended before its
 * sampler's first round (its record holds its life only). The reported
 * flags say it without reading or decoding its series: a metric is
 * reported exactly when one of its values is a number (the builder's
 * packer, the writer, the reader), so the end of a run of many short
 * processes reads none of their blocks to count them. */
static gboolean
no_metric_value (MgProfile *self, guint process)
{
  guint n_metrics = self->metrics->len;

  for (guint m = 0; m < n_metrics; m++)
    if (self->packed != NULL ? self->packed[process].reported[m]
                             : self->process_series[(gsize) process * n_metrics + m].n > 0)
      return FALSE;
  return TRUE;
}

guint
mg_profile_get_n_unsampled (MgProfile *self)
{
  double interval_ms = mg_profile_get_run_info (self)->interval_start_ms;
  guint n = 0;

  g_return_val_if_fail (MG_IS_PROFILE (self), 0);
  for (guint p = 0; p < self->processes->len; p++)
    {
      const MgProcessInfo *process = &g_array_index (self->processes, MgProcessInfo, p);

      if ((process->end == MG_PROCESS_END_EXITED || process->end == MG_PROCESS_END_EXECED)
          && (process->end_s - process->start_s) * 1e3 < interval_ms
          && no_metric_value (self, p))
        n++;
    }
  return n;
}

const MgProcessSeries *
mg_profile_get_process_series (MgProfile *self, guint process, guint metric)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  g_return_val_if_fail (process < self->processes->len, NULL);
  g_return_val_if_fail (metric < self->metrics->len, NULL);
  /* Opened from a file: read when first asked for (n = 0 if that fails). */
  mg_profile_read_process_series (self, process, NULL);
  return &self->process_series[(gsize) process * self->metrics->len + metric];
}

/* Points the process's series at decoded memory (NULL: empty). */
static void
point_series (MgProfile *self, guint process, const double *memory)
{
  guint n_metrics = self->metrics->len;
  gsize n = self->process_n[process];
  const guint8 *reported = self->packed[process].reported;

  for (guint m = 0; m < n_metrics; m++)
    {
      MgProcessSeries *s = &self->process_series[(gsize) process * n_metrics + m];
      const double *block = memory != NULL ? memory + n + (gsize) m * MG_PROCESS_SERIES_N * n : NULL;

      if (memory == NULL || !reported[m])
        *s = (MgProcessSeries) { 0 };
      else
        *s = (MgProcessSeries) { n, memory, block, block + n, block + 2 * n };
    }
}

/* Keeps the decoded memory of the processes asked for last only. */
static void
touch_unpacked (MgProfile *self, guint process)
{
  g_queue_remove (&self->unpacked, GUINT_TO_POINTER (process));
  g_queue_push_head (&self->unpacked, GUINT_TO_POINTER (process));
  while (g_queue_get_length (&self->unpacked) > MG_PROFILE_UNPACKED_MAX)
    {
      guint old = GPOINTER_TO_UINT (g_queue_pop_tail (&self->unpacked));

      point_series (self, old, NULL);
      g_clear_pointer (&self->packed[old].memory, g_free);
    }
}

static gboolean
unpack (MgProfile *self, guint process, GError **error)
{
  MgPackedProcess *packed = &self->packed[process];
  gsize n = self->process_n[process];
  guint n_metrics = self->metrics->len;
  gboolean ok = TRUE;

  g_mutex_lock (&self->unpack_lock);
  if (packed->memory == NULL && !packed->damaged)
    {
      double *memory = g_new (double, MAX (n * (1 + (gsize) n_metrics * MG_PROCESS_SERIES_N), 1));

      if (mg_process_block_decode (packed->block, packed->size, n, n_metrics, packed->reported,
                                   memory, memory + n))
        packed->memory = memory;
      else
        {
          g_free (memory);
          packed->damaged = TRUE;
        }
      point_series (self, process, packed->memory);
    }
  if (packed->memory != NULL)
    touch_unpacked (self, process);
  else
    ok = FALSE;
  g_mutex_unlock (&self->unpack_lock);
  if (!ok)
    g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT,
                 _("The profile “%s” is damaged: the series of process %d cannot be read "
                   "from it."), self->file_name != NULL ? self->file_name : "(memory)",
                 g_array_index (self->processes, MgProcessInfo, process).pid);
  return ok;
}

gboolean
mg_profile_fetch_process (MgProfile *self, guint process, gboolean keep_packed, GError **error)
{
  if (!mg_profile_source_read (self->source, process,
                               g_array_index (self->processes, MgProcessInfo, process).pid, error))
    return FALSE;
  if (self->packed == NULL || keep_packed)
    return TRUE;
  return unpack (self, process, error);
}

gboolean
mg_profile_read_process_series (MgProfile *self, guint process, GError **error)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (process < self->processes->len, FALSE);
  return mg_profile_fetch_process (self, process, FALSE, error);
}

/* One block: the struct, then times, mins, maxs, means. */
static MgProcessSeries *
copy_series (gsize n, const double *times, const double *mins, const double *maxs,
             const double *means)
{
  MgProcessSeries *copy = g_malloc (sizeof (MgProcessSeries) + 4 * n * sizeof (double));
  double *data = (double *) (copy + 1);

  copy->n = (guint) n;
  if (n > 0)
    {
      memcpy (data, times, n * sizeof (double));
      memcpy (data + n, mins, n * sizeof (double));
      memcpy (data + 2 * n, maxs, n * sizeof (double));
      memcpy (data + 3 * n, means, n * sizeof (double));
    }
  copy->times = data;
  copy->mins = data + n;
  copy->maxs = data + 2 * n;
  copy->means = data + 3 * n;
  return copy;
}

MgProcessSeries *
mg_profile_dup_process_series (MgProfile *self, guint process, guint metric, GError **error)
{
  MgPackedProcess *packed;
  guint n_metrics;
  gsize n;
  g_autofree double *memory = NULL;
  const double *values;
  MgProcessSeries *copy = NULL;

  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  g_return_val_if_fail (process < self->processes->len, NULL);
  g_return_val_if_fail (metric < self->metrics->len, NULL);

  n_metrics = self->metrics->len;
  if (self->packed == NULL)
    {
      const MgProcessSeries *s;

      if (!mg_profile_read_process_series (self, process, error))
        return NULL;
      s = &self->process_series[(gsize) process * n_metrics + metric];
      return copy_series (s->n, s->times, s->mins, s->maxs, s->means);
    }
  /* The packed block read, not decoded into the kept processes. */
  if (!mg_profile_fetch_process (self, process, TRUE, error))
    return NULL;
  packed = &self->packed[process];
  n = self->process_n[process];
  g_mutex_lock (&self->unpack_lock);
  if (!packed->reported[metric])
    copy = copy_series (0, NULL, NULL, NULL, NULL);
  else if (packed->memory != NULL)
    {
      const MgProcessSeries *s = &self->process_series[(gsize) process * n_metrics + metric];

      copy = copy_series (s->n, s->times, s->mins, s->maxs, s->means);
    }
  else if (!packed->damaged)
    {
      memory = g_new (double, MAX (n * (1 + (gsize) n_metrics * MG_PROCESS_SERIES_N), 1));
      if (mg_process_block_decode (packed->block, packed->size, n, n_metrics, packed->reported,
                                   memory, memory + n))
        {
          /* As point_series lays them out: [metric][mins, maxs, means][n]. */
          values = memory + n + (gsize) metric * MG_PROCESS_SERIES_N * n;
          copy = copy_series (n, memory, values, values + n, values + 2 * n);
        }
    }
  g_mutex_unlock (&self->unpack_lock);
  if (copy == NULL)
    g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT,
                 _("The profile “%s” is damaged: the series of process %d cannot be read "
                   "from it."), self->file_name != NULL ? self->file_name : "(memory)",
                 g_array_index (self->processes, MgProcessInfo, process).pid);
  return copy;
}

guint
mg_profile_get_n_plugin_errors (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), 0);
  return self->plugin_errors->len;
}

const MgPluginError *
mg_profile_get_plugin_error (MgProfile *self, guint i)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  g_return_val_if_fail (i < self->plugin_errors->len, NULL);
  return &g_array_index (self->plugin_errors, MgPluginError, i);
}

guint
mg_profile_get_n_metric_errors (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), 0);
  return self->metric_errors->len;
}

const MgMetricError *
mg_profile_get_metric_error (MgProfile *self, guint i)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  g_return_val_if_fail (i < self->metric_errors->len, NULL);
  return &g_array_index (self->metric_errors, MgMetricError, i);
}

guint
mg_profile_get_n_events (MgProfile *self)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), 0);
  return self->events->len;
}

const MgProcessEvent *
mg_profile_get_event (MgProfile *self, guint i)
{
  g_return_val_if_fail (MG_IS_PROFILE (self), NULL);
  g_return_val_if_fail (i < self->events->len, NULL);
  return &g_array_index (self->events, MgProcessEvent, i);
}
