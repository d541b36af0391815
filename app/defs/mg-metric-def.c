/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Plain data of a metric definition file: constructors, copies and the
 * names of the enumerations. */
#include "mg-config.h"

#include "mg-metric-def.h"

MgMetricDef *
mg_metric_def_new (void)
{
  MgMetricDef *def = g_new0 (MgMetricDef, 1);

  def->enabled = MG_ENABLED_DEFAULT_YES;
  def->units = g_strdup ("");
  def->data_type = MG_DATA_TYPE_UINT64;
  def->domain = MG_DOMAIN_TIME;
  def->type = MG_METRIC_TYPE_OTHER;
  def->display_factor = 1.0;
  def->decimal_places = -1;
  return def;
}

MgMetricDef *
mg_metric_def_copy (const MgMetricDef *def)
{
  MgMetricDef *copy;

  g_return_val_if_fail (def != NULL, NULL);

  copy = g_memdup2 (def, sizeof *def);
  copy->id = g_strdup (def->id);
  copy->units = g_strdup (def->units);
  copy->source_ref = g_strdup (def->source_ref);
  copy->function_name = g_strdup (def->function_name);
  copy->custom_data = g_strdup (def->custom_data);
  copy->config_env = g_strdup (def->config_env);
  copy->display_name = g_strdup (def->display_name);
  copy->description = g_strdup (def->description);
  copy->type_name = g_strdup (def->type_name);
  copy->colour_spec = g_strdup (def->colour_spec);
  copy->display_units = g_strdup (def->display_units);
  copy->integral_name = g_strdup (def->integral_name);
  copy->file = g_strdup (def->file);
  return copy;
}

void
mg_metric_def_free (MgMetricDef *def)
{
  if (def == NULL)
    return;
  g_free (def->id);
  g_free (def->units);
  g_free (def->source_ref);
  g_free (def->function_name);
  g_free (def->custom_data);
  g_free (def->config_env);
  g_free (def->display_name);
  g_free (def->description);
  g_free (def->type_name);
  g_free (def->colour_spec);
  g_free (def->display_units);
  g_free (def->integral_name);
  g_free (def->file);
  g_free (def);
}

MgMetricGroup *
mg_metric_group_new (void)
{
  MgMetricGroup *group = g_new0 (MgMetricGroup, 1);

  group->metric_refs = g_ptr_array_new_with_free_func (g_free);
  return group;
}

MgMetricGroup *
mg_metric_group_copy (const MgMetricGroup *group)
{
  MgMetricGroup *copy;

  g_return_val_if_fail (group != NULL, NULL);

  copy = mg_metric_group_new ();
  copy->id = g_strdup (group->id);
  copy->display_name = g_strdup (group->display_name);
  copy->description = g_strdup (group->description);
  for (guint i = 0; i < group->metric_refs->len; i++)
    g_ptr_array_add (copy->metric_refs, g_strdup (g_ptr_array_index (group->metric_refs, i)));
  copy->file = g_strdup (group->file);
  copy->line = group->line;
  return copy;
}

void
mg_metric_group_free (MgMetricGroup *group)
{
  if (group == NULL)
    return;
  g_free (group->id);
  g_free (group->display_name);
  g_free (group->description);
  g_ptr_array_unref (group->metric_refs);
  g_free (group->file);
  g_free (group);
}

MgSourceDef *
mg_source_def_new (void)
{
  MgSourceDef *source = g_new0 (MgSourceDef, 1);

  source->preloads = g_ptr_array_new_with_free_func (g_free);
  source->preload_paths = g_ptr_array_new_with_free_func (g_free);
  return source;
}

void
mg_source_def_free (MgSourceDef *source)
{
  if (source == NULL)
    return;
  g_free (source->id);
  g_free (source->shared_library);
  g_free (source->library_path);
  g_ptr_array_unref (source->preloads);
  g_ptr_array_unref (source->preload_paths);
  g_free (source->start_function);
  g_free (source->stop_function);
  g_free (source->scorep_plugin);
  g_strfreev (source->scorep_tokens);
  g_free (source->scorep_error);
  g_free (source->file);
  g_free (source);
}

static const char *const type_names[] = {
  [MG_METRIC_TYPE_CPU_TIME] = "cpu_time",
  [MG_METRIC_TYPE_ENERGY] = "energy",
  [MG_METRIC_TYPE_INSTRUCTIONS] = "instructions",
  [MG_METRIC_TYPE_IO] = "io",
  [MG_METRIC_TYPE_MEMORY] = "memory",
  [MG_METRIC_TYPE_MPI] = "mpi",
  [MG_METRIC_TYPE_OTHER] = "other",
};

const char *
mg_metric_type_to_string (MgMetricType type)
{
  if ((guint) type >= G_N_ELEMENTS (type_names))
    return "other";
  return type_names[type];
}

/* Unknown names (real files use "interrupts", "events") are OTHER; the
 * caller keeps the name as written in type_name. */
MgMetricType
mg_metric_type_from_string (const char *name)
{
  if (name == NULL)
    return MG_METRIC_TYPE_OTHER;
  for (guint i = 0; i < G_N_ELEMENTS (type_names); i++)
    if (g_ascii_strcasecmp (name, type_names[i]) == 0)
      return (MgMetricType) i;
  return MG_METRIC_TYPE_OTHER;
}

const char *
mg_enabled_to_string (MgEnabled enabled)
{
  switch (enabled)
    {
    case MG_ENABLED_ALWAYS:
      return "always";
    case MG_ENABLED_DEFAULT_YES:
      return "default_yes";
    case MG_ENABLED_DEFAULT_NO:
      return "default_no";
    case MG_ENABLED_NEVER:
      return "never";
    default:
      return "default_yes";
    }
}
