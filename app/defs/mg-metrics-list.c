/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Formats the --list-metrics text. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-metrics-list.h"

static const char *
on_off (gboolean on)
{
  return on ? _("on") : _("off");
}

static void
append_metric (GString *out, const MgCatalogueMetric *metric)
{
  const MgMetricDef *def = metric->def;
  const char *library = metric->source != NULL ? metric->source->shared_library : "?";

  g_string_append_printf (out, "  %s  \"%s\"  [%s]  %s  %s:%d  ", def->id, def->display_name,
                          def->units, library, def->file, def->line);
  /* TRANSLATORS: default state (and the <enabled> value), then the effective state */
  g_string_append_printf (out, _("default %s (%s), now %s"), on_off (metric->default_on),
                          mg_enabled_to_string (def->enabled), on_off (metric->enabled));
  if (!metric->available)
    g_string_append_printf (out, _("; unavailable: %s"), metric->unavailable_reason);
  g_string_append_c (out, '\n');
}

static void
append_groups (GString *out, MgCatalogue *catalogue, GHashTable *grouped)
{
  for (guint i = 0; i < mg_catalogue_get_n_groups (catalogue); i++)
    {
      const MgCatalogueGroup *group = mg_catalogue_get_group (catalogue, i);

      g_string_append_printf (out, "%s (%s)\n", group->group->display_name, group->group->id);
      for (guint j = 0; j < group->members->len; j++)
        {
          const MgCatalogueMetric *metric = g_ptr_array_index (group->members, j);

          append_metric (out, metric);
          g_hash_table_add (grouped, (gpointer) metric);
        }
      for (guint j = 0; j < group->missing_refs->len; j++)
        g_string_append_printf (out, _("  %s  (not defined on this system)\n"),
                                (const char *) g_ptr_array_index (group->missing_refs, j));
      g_string_append_c (out, '\n');
    }
}

static void
append_ungrouped (GString *out, MgCatalogue *catalogue, GHashTable *grouped)
{
  gboolean heading = FALSE;

  for (guint i = 0; i < mg_catalogue_get_n_metrics (catalogue); i++)
    {
      const MgCatalogueMetric *metric = mg_catalogue_get_metric (catalogue, i);

      if (g_hash_table_contains (grouped, metric))
        continue;
      if (!heading)
        g_string_append_printf (out, "%s\n", _("Ungrouped"));
      heading = TRUE;
      append_metric (out, metric);
    }
  if (heading)
    g_string_append_c (out, '\n');
}

static void
append_unavailable_groups (GString *out, MgCatalogue *catalogue)
{
  gboolean heading = FALSE;

  for (guint i = 0; i < mg_catalogue_get_n_groups (catalogue); i++)
    {
      const MgCatalogueGroup *group = mg_catalogue_get_group (catalogue, i);

      if (group->available)
        continue;
      if (!heading)
        g_string_append_printf (out, "%s\n", _("Unavailable groups"));
      heading = TRUE;
      g_string_append_printf (out, "  %s (%s): %s\n", group->group->display_name,
                              group->group->id, group->unavailable_reason);
    }
  if (heading)
    g_string_append_c (out, '\n');
}

static void
append_diagnostics (GString *out, MgCatalogue *catalogue)
{
  GPtrArray *diagnostics = mg_catalogue_get_diagnostics (catalogue);

  if (diagnostics->len == 0)
    return;
  g_string_append_printf (out, "%s\n", _("Definition problems"));
  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *line = mg_diagnostic_to_string (g_ptr_array_index (diagnostics, i));

      g_string_append_printf (out, "  %s\n", line);
    }
}

char *
mg_metrics_list_format (MgCatalogue *catalogue)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GHashTable) grouped = g_hash_table_new (NULL, NULL);

  g_return_val_if_fail (MG_IS_CATALOGUE (catalogue), NULL);

  if (mg_catalogue_get_n_metrics (catalogue) == 0)
    g_string_append_printf (out, "%s\n\n",
                            _("No metrics found: no definition file on the metrics path "
                              "defines a usable metric."));
  append_groups (out, catalogue, grouped);
  append_ungrouped (out, catalogue, grouped);
  append_unavailable_groups (out, catalogue);
  append_diagnostics (out, catalogue);
  return g_string_free (g_steal_pointer (&out), FALSE);
}
