/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run plan writer. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mg-plan-writer.h"

#include "format/mg-plan-keywords.h"

G_DEFINE_QUARK (mg-plan-error-quark, mg_plan_error)

char *
mg_plan_escape_field (const char *field)
{
  GString *out = g_string_new (NULL);

  for (const char *p = field != NULL ? field : ""; *p != '\0'; p++)
    {
      char letter = mg_plan_escape_letter (*p);

      if (letter != 0)
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, letter);
        }
      else
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* Appends "keyword\tf1\tf2…\n"; fails on a line the sampler would refuse. */
static gboolean
append_line (GString *plan, GError **error, MgPlanKey key, ...) G_GNUC_NULL_TERMINATED;

static gboolean
append_line (GString *plan, GError **error, MgPlanKey key, ...)
{
  const MgPlanKeyword *keyword = &mg_plan_keywords[key];
  gsize start = plan->len;
  guint n_fields = 0;
  va_list args;
  const char *field;

  g_string_append (plan, keyword->name);
  va_start (args, key);
  while ((field = va_arg (args, const char *)) != NULL)
    {
      g_autofree char *escaped = mg_plan_escape_field (field);

      g_string_append_c (plan, '\t');
      g_string_append (plan, escaped);
      n_fields++;
    }
  va_end (args);
  g_string_append_c (plan, '\n');
  g_assert (n_fields == keyword->n_fields);
  /* The line without its '\n', as the sampler measures it. */
  if (plan->len - start - 1 > MG_PLAN_MAX_LINE)
    {
      g_set_error (error, MG_PLAN_ERROR, MG_PLAN_ERROR_INVALID,
                   _("the run plan's '%s' line would be longer than %d bytes; use shorter "
                     "paths or ids"), keyword->name, MG_PLAN_MAX_LINE);
      return FALSE;
    }
  return TRUE;
}

/* A NUMBER keyword's line, when value is given (> 0). */
static void
append_number (GString *plan, MgPlanKey key, guint64 value)
{
  if (value > 0)
    g_string_append_printf (plan, "%s\t%" G_GUINT64_FORMAT "\n", MG_PLAN_KEYWORD (key), value);
}

/* What the sampler accepts: digits, ',' and '-' only (app/session/mg-rank-list.c
 * writes the canonical form; the sampler checks the rest). */
static gboolean
ranks_ok (const char *ranks)
{
  return *ranks != '\0' && strspn (ranks, "0123456789,-") == strlen (ranks);
}

static gboolean
check_options (const MgPlanOptions *options, GError **error)
{
  g_autofree char *problem = NULL;

  if (options->run_id == NULL || *options->run_id == '\0')
    problem = g_strdup (_("the run id is empty"));
  else if (options->record_dir == NULL || !g_path_is_absolute (options->record_dir))
    problem = g_strdup (_("the record folder is not an absolute path"));
  else if (options->samples != 0 && options->samples < MG_PLAN_MIN_SAMPLES)
    problem = g_strdup_printf (_("the number of samples is below %d"), MG_PLAN_MIN_SAMPLES);
  else if (options->select_ranks != NULL && !ranks_ok (options->select_ranks))
    problem = g_strdup (_("the list of selected ranks is not in canonical form"));
  if (problem == NULL)
    return TRUE;
  g_set_error (error, MG_PLAN_ERROR, MG_PLAN_ERROR_INVALID, _("cannot write the run plan: %s"),
               problem);
  return FALSE;
}

static gboolean
append_header (GString *plan, const MgPlanOptions *options, GError **error)
{
  g_string_append (plan, MG_PLAN_FIRST_LINE "\n");
  if (!append_line (plan, error, MG_PLAN_KEY_RUN_ID, options->run_id, NULL)
      || !append_line (plan, error, MG_PLAN_KEY_RECORD_DIR, options->record_dir, NULL))
    return FALSE;
  append_number (plan, MG_PLAN_KEY_INTERVAL_MS, options->interval_ms);
  append_number (plan, MG_PLAN_KEY_SAMPLES, options->samples);
  append_number (plan, MG_PLAN_KEY_START_AFTER_MS, options->start_after_ms);
  append_number (plan, MG_PLAN_KEY_STOP_AFTER_MS, options->stop_after_ms);
  append_number (plan, MG_PLAN_KEY_HANG_INTERVALS, options->hang_intervals);
  append_number (plan, MG_PLAN_KEY_PLUGIN_LIMIT_MS, options->plugin_limit_ms);
  append_number (plan, MG_PLAN_KEY_NO_STACKS, options->no_stacks ? 1 : 0);
  for (guint i = 0; options->skip_programs != NULL && options->skip_programs[i] != NULL; i++)
    if (!append_line (plan, error, MG_PLAN_KEY_SKIP_PROGRAM, options->skip_programs[i], NULL))
      return FALSE;
  if (options->select_ranks != NULL
      && !append_line (plan, error, MG_PLAN_KEY_SELECT_RANKS, options->select_ranks, NULL))
    return FALSE;
  return TRUE;
}

static gboolean
append_metric (GString *plan, guint index, guint source_index, const MgMetricDef *def,
               GError **error)
{
  char index_text[16], source_text[16];

  g_snprintf (index_text, sizeof index_text, "%u", index);
  g_snprintf (source_text, sizeof source_text, "%u", source_index);
  return append_line (plan, error, MG_PLAN_KEY_METRIC, index_text, source_text, def->id,
                      def->function_name,
                      def->data_type == MG_DATA_TYPE_DOUBLE ? MG_PLAN_TYPE_DOUBLE
                                                            : MG_PLAN_TYPE_UINT64,
                      def->units != NULL ? def->units : "",
                      def->divide_by_sample_time ? "1" : "0", def->one_per_node ? "1" : "0",
                      def->backfill ? "1" : "0",
                      def->domain == MG_DOMAIN_SINGLE_VALUE ? MG_PLAN_DOMAIN_SINGLE_VALUE
                                                            : MG_PLAN_DOMAIN_TIME,
                      def->config_env != NULL ? def->config_env : "",
                      def->custom_data != NULL ? def->custom_data : "", NULL);
}

static gboolean
append_source (GString *plan, const char *index_text, const MgSourceDef *source, GError **error)
{
  g_autofree char *tokens = NULL;
  char separator[2] = { MG_PLAN_SCOREP_TOKEN_SEPARATOR, '\0' };

  /* A Score-P plugin that could not be listed has no library: the sampler
   * only reports its error. */
  if (!append_line (plan, error, MG_PLAN_KEY_SOURCE, index_text, source->id,
                    source->library_path != NULL ? source->library_path : "/",
                    source->start_function != NULL ? source->start_function : "",
                    source->stop_function != NULL ? source->stop_function : "", NULL))
    return FALSE;
  if (source->scorep_plugin == NULL)
    return TRUE;
  tokens = g_strjoinv (separator, source->scorep_tokens);
  return append_line (plan, error, MG_PLAN_KEY_SCOREP_PLUGIN, index_text, source->scorep_plugin,
                      tokens, source->scorep_error != NULL ? source->scorep_error : "", NULL);
}

/* Score-P plugins whose metrics could not be listed have none enabled; the
 * plan still names them so that every process records why. */
static void
add_failed_scorep_sources (MgCatalogue *catalogue, GPtrArray *sources)
{
  GPtrArray *all = mg_catalogue_get_sources (catalogue);

  for (guint i = 0; i < all->len; i++)
    {
      const MgSourceDef *source = g_ptr_array_index (all, i);

      if (source->scorep_error != NULL)
        g_ptr_array_add (sources, (gpointer) source);
    }
}

char *
mg_plan_to_string (MgCatalogue *catalogue, const MgPlanOptions *options, GError **error)
{
  g_autoptr (GString) plan = g_string_new (NULL);
  g_autoptr (GPtrArray) sources = NULL;
  guint metric_index = 0;

  g_return_val_if_fail (MG_IS_CATALOGUE (catalogue), NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_options (options, error) || !append_header (plan, options, error))
    return NULL;

  sources = mg_catalogue_get_enabled_sources (catalogue);
  add_failed_scorep_sources (catalogue, sources);
  for (guint s = 0; s < sources->len; s++)
    {
      const MgSourceDef *source = g_ptr_array_index (sources, s);
      g_autoptr (GPtrArray) metrics = mg_catalogue_get_enabled_metrics (catalogue, source);
      char index_text[16];

      g_snprintf (index_text, sizeof index_text, "%u", s);
      if (!append_source (plan, index_text, source, error))
        return NULL;
      for (guint m = 0; m < metrics->len; m++)
        {
          const MgCatalogueMetric *metric = g_ptr_array_index (metrics, m);

          if (!append_metric (plan, metric_index++, s, metric->def, error))
            return NULL;
        }
    }
  return g_string_free (g_steal_pointer (&plan), FALSE);
}

gboolean
mg_plan_write (MgCatalogue *catalogue, const MgPlanOptions *options, const char *path,
               GError **error)
{
  g_autofree char *text = mg_plan_to_string (catalogue, options, error);

  g_return_val_if_fail (path != NULL, FALSE);
  if (text == NULL)
    return FALSE;
  return g_file_set_contents (path, text, -1, error);
}
