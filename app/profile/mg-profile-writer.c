/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile as its payload: each part of the model as the GVariant the
 * layout (mg-profile-layout.h) gives it. Text is stored valid, names as
 * the bytes they are. */
#include "mg-config.h"

#include <string.h>

#include "mg-profile-internal.h"
#include "mg-profile-layout.h"
#include "mg-profile-writer.h"
#include "mg-stack-pack.h"

/* Text the profile holds as UTF-8 (definitions, messages): what a plugin
 * or a file gave that is not valid is stored with its invalid sequences
 * replaced, never refused (GVariant asserts on invalid strings). */
static GVariant *
text_variant (const char *s)
{
  g_autofree char *valid = NULL;

  if (s == NULL)
    s = "";
  if (g_utf8_validate (s, -1, NULL))
    return g_variant_new_string (s);
  valid = g_utf8_make_valid (s, -1);
  return g_variant_new_string (valid);
}

static GVariant *
maybe_string (const char *s)
{
  return g_variant_new_maybe (G_VARIANT_TYPE_STRING, s != NULL ? text_variant (s) : NULL);
}

static GVariant *
texts_variant (char **strv, gssize n)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE_STRING_ARRAY);
  for (gssize i = 0; strv != NULL && (n < 0 ? strv[i] != NULL : i < n); i++)
    g_variant_builder_add_value (&b, text_variant (strv[i]));
  return g_variant_builder_end (&b);
}

/* Names Linux gives as bytes: kept as they are (format 5). */
static GVariant *
bytes_variant (const char *s)
{
  return g_variant_new_bytestring (s != NULL ? s : "");
}

static GVariant *
maybe_bytes (const char *s)
{
  return g_variant_new_maybe (G_VARIANT_TYPE_BYTESTRING, s != NULL ? bytes_variant (s) : NULL);
}

static GVariant *
bytes_array_variant (char **strv)
{
  static const char *const none[] = { NULL };

  return g_variant_new_bytestring_array (strv != NULL ? (const char *const *) strv : none, -1);
}

/* A view of memory the profile keeps alive while the payload is written. */
static GVariant *
doubles_variant (const double *values, gsize n)
{
  return g_variant_new_from_data (G_VARIANT_TYPE ("ad"), n > 0 ? values : NULL,
                                  n * sizeof (double), TRUE, NULL, NULL);
}

static GVariant *
run_to_variant (const MgRunInfo *run)
{
  return g_variant_new ("(@aay@ay@aayxduuddui@s)", bytes_array_variant (run->argv),
                        bytes_variant (run->working_dir), bytes_array_variant (run->hosts),
                        (gint64) run->start_time_us, run->duration_s, run->n_processes,
                        run->n_nodes, run->interval_start_ms, run->interval_end_ms,
                        run->max_samples, run->exit_status,
                        text_variant (run->metrograph_version));
}

static GVariant *
metric_to_variant (const MgMetricDef *d)
{
  return g_variant_new ("(@si@siibbb@ms@msb@ms@ms@ms@ms@msi@msb(dddd)d@msibbbb@ms@msi)",
                        text_variant (d->id), d->enabled, text_variant (d->units),
                        d->data_type, d->domain, d->one_per_node, d->backfill, d->sparse,
                        maybe_string (d->source_ref), maybe_string (d->function_name),
                        d->divide_by_sample_time, maybe_string (d->custom_data),
                        maybe_string (d->config_env), maybe_string (d->display_name),
                        maybe_string (d->description), maybe_string (d->type_name), d->type,
                        maybe_string (d->colour_spec), d->has_colour, d->colour.r, d->colour.g,
                        d->colour.b, d->colour.a, d->display_factor,
                        maybe_string (d->display_units), d->decimal_places,
                        d->auto_display_factor, d->accumulate, d->normalize_percentages,
                        d->clamp_percentages, maybe_string (d->integral_name),
                        maybe_string (d->file), d->line);
}

static GVariant *
group_to_variant (const MgMetricGroup *g)
{
  g_autoptr(GPtrArray) refs = g_ptr_array_new ();

  for (guint i = 0; g->metric_refs != NULL && i < g->metric_refs->len; i++)
    g_ptr_array_add (refs, g_ptr_array_index (g->metric_refs, i));
  return g_variant_new ("(@s@ms@ms@as@msi)", text_variant (g->id),
                        maybe_string (g->display_name), maybe_string (g->description),
                        texts_variant ((char **) refs->pdata, refs->len),
                        maybe_string (g->file), g->line);
}

static GVariant *
block_variant (GBytes *block)
{
  return g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, block, TRUE);
}

static GVariant *
process_series_to_variant (MgProfile *self, guint p, GBytes *block)
{
  guint n_metrics = self->metrics->len;
  g_autofree guint8 *reported = g_new0 (guint8, MAX (n_metrics, 1));

  for (guint m = 0; m < n_metrics; m++)
    reported[m] = self->process_series[(gsize) p * n_metrics + m].n > 0;
  if (self->packed != NULL)
    memcpy (reported, self->packed[p].reported, n_metrics);
  return g_variant_new ("(u@ay@ab)", (guint32) self->process_n[p], block_variant (block),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_BOOLEAN, reported, n_metrics,
                                                   sizeof (guint8)));
}

GVariant *
mg_profile_to_payload (MgProfile *self, GBytes **blocks)
{
  guint n_metrics = self->metrics->len;
  gsize n_win = self->n_windows;
  GVariantBuilder b;
  GVariant *parts[11];
  /* Format 7 stores the stacks packed; the profile keeps them unpacked,
   * but a loaded one keeps what it read, which is written as it is. */
  g_autoptr (GVariant) packed_stacks = self->stacks_packed != NULL
                                         ? g_variant_ref (self->stacks_packed)
                                         : mg_stack_pack (self->stacks);

  parts[0] = run_to_variant (&self->run);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" MG_PAYLOAD_METRIC_TYPE));
  for (guint m = 0; m < n_metrics; m++)
    g_variant_builder_add_value (&b, metric_to_variant (g_ptr_array_index (self->metrics, m)));
  parts[1] = g_variant_builder_end (&b);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" MG_PAYLOAD_GROUP_TYPE));
  for (guint i = 0; i < self->groups->len; i++)
    g_variant_builder_add_value (&b, group_to_variant (g_ptr_array_index (self->groups, i)));
  parts[2] = g_variant_builder_end (&b);

  parts[3] = doubles_variant (self->window_starts, n_win);
  parts[4] = doubles_variant (self->window_ends, n_win);
  /* The aggregates are one block each, starting at series[0]. */
  parts[5] = doubles_variant (n_metrics > 0 ? self->series[0].mins : NULL,
                              (gsize) n_metrics * MG_SERIES_N_DOUBLES * n_win);
  parts[6] = g_variant_new_from_data (G_VARIANT_TYPE ("ai"),
                                      n_metrics > 0 && n_win > 0 ? self->series[0].min_process : NULL,
                                      (gsize) n_metrics * MG_SERIES_N_INDICES * n_win * sizeof (gint32),
                                      TRUE, NULL, NULL);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a(dddddu)"));
  for (guint m = 0; m < n_metrics; m++)
    {
      const MgSingleValue *v = &self->singles[m];

      g_variant_builder_add (&b, "(dddddu)", v->min, v->max, v->mean, v->var, v->sum, v->count);
    }
  parts[7] = g_variant_builder_end (&b);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" MG_PAYLOAD_PROCESS_TYPE));
  for (guint p = 0; p < self->processes->len; p++)
    {
      const MgProcessInfo *i = &g_array_index (self->processes, MgProcessInfo, p);

      g_variant_builder_add (&b, "(iii@may@mayddiib)", i->pid, i->ppid, i->rank,
                             maybe_bytes (i->host), maybe_bytes (i->program), i->start_s,
                             i->end_s, (gint32) i->end, i->status, i->node_leader);
    }
  parts[8] = g_variant_builder_end (&b);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" MG_PAYLOAD_PSERIES_TYPE));
  for (guint p = 0; p < self->processes->len; p++)
    g_variant_builder_add_value (&b, process_series_to_variant (self, p, blocks[p]));
  parts[9] = g_variant_builder_end (&b);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" MG_PAYLOAD_PLUGIN_ERROR_TYPE));
  for (guint i = 0; i < self->plugin_errors->len; i++)
    {
      const MgPluginError *e = &g_array_index (self->plugin_errors, MgPluginError, i);

      g_variant_builder_add (&b, "(i@ms@msi@ms)", e->process, maybe_string (e->source_id),
                             maybe_string (e->library), e->code, maybe_string (e->message));
    }
  parts[10] = g_variant_builder_end (&b);

  {
    GVariantBuilder me, ev;

    g_variant_builder_init (&me, G_VARIANT_TYPE ("a" MG_PAYLOAD_METRIC_ERROR_TYPE));
    for (guint i = 0; i < self->metric_errors->len; i++)
      {
        const MgMetricError *e = &g_array_index (self->metric_errors, MgMetricError, i);

        g_variant_builder_add (&me, "(i@msi@msudd)", e->process, maybe_string (e->metric_id),
                               e->code, maybe_string (e->message), e->count, e->first_s,
                               e->last_s);
      }
    g_variant_builder_init (&ev, G_VARIANT_TYPE ("a" MG_PAYLOAD_EVENT_TYPE));
    for (guint i = 0; i < self->events->len; i++)
      {
        const MgProcessEvent *e = &g_array_index (self->events, MgProcessEvent, i);

        g_variant_builder_add (&ev, "(idii@ms)", e->process, e->time_s, (gint32) e->kind,
                               e->status, maybe_string (e->message));
      }
    return g_variant_new ("(@" MG_PAYLOAD_RUN_TYPE "@a" MG_PAYLOAD_METRIC_TYPE
                          "@a" MG_PAYLOAD_GROUP_TYPE "@ad@ad@ad@ai@a(dddddu)"
                          "@a" MG_PAYLOAD_PROCESS_TYPE "@a" MG_PAYLOAD_PSERIES_TYPE
                          "@a" MG_PAYLOAD_PLUGIN_ERROR_TYPE "@a" MG_PAYLOAD_METRIC_ERROR_TYPE
                          "@a" MG_PAYLOAD_EVENT_TYPE "@" MG_PAYLOAD_OUTPUT_TYPE
                          MG_PAYLOAD_PRECISION_TYPE "@" MG_PAYLOAD_STACKS_PACKED_TYPE
                          "@" MG_PAYLOAD_CODE_TYPE "@" MG_PAYLOAD_THREADS_TYPE ")",
                          parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6],
                          parts[7], parts[8], parts[9], parts[10],
                          g_variant_builder_end (&me), g_variant_builder_end (&ev),
                          g_variant_new ("(@mayt)", maybe_bytes (self->run.output),
                                         (guint64) self->run.output_cut),
                          (guint32) self->process_precision, packed_stacks, self->code,
                          self->threads);
  }
}
