/* The Metrics menu model. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-metrics-menu.h"

static void
append_presets (GMenu *menu, MgMetricVisibility *visibility)
{
  g_autoptr (GMenu) presets = g_menu_new ();

  for (guint s = 0; s < mg_metric_visibility_get_n_sections (visibility); s++)
    {
      const MgMetricSection *section = mg_metric_visibility_get_section (visibility, s);
      g_autofree char *label = NULL;
      g_autofree char *target = NULL;
      g_autoptr (GMenuItem) item = NULL;

      if (section->id == NULL)
        continue;
      /* MAP's naming: "Preset: <metricGroup displayName>". */
      label = g_strdup_printf (_("Preset: %s"), section->title);
      target = g_strconcat ("group:", section->id, NULL);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.preset", g_variant_new_string (target));
      g_menu_append_item (presets, item);
    }
  {
    g_autoptr (GMenuItem) item = g_menu_item_new (_("All Metrics"), NULL);

    g_menu_item_set_action_and_target_value (item, "win.preset", g_variant_new_string ("all"));
    g_menu_append_item (presets, item);
  }
  g_menu_append_section (menu, NULL, G_MENU_MODEL (presets));
}

static void
append_groups (GMenu *menu, MgMetricVisibility *visibility)
{
  g_autoptr (GMenu) groups = g_menu_new ();
  g_autoptr (GMenu) metrics = g_menu_new ();
  MgProfile *profile = mg_metric_visibility_get_profile (visibility);

  for (guint s = 0; s < mg_metric_visibility_get_n_sections (visibility); s++)
    {
      const MgMetricSection *section = mg_metric_visibility_get_section (visibility, s);
      g_autofree char *action = g_strconcat ("win.", section->action_name, NULL);
      g_autoptr (GMenu) submenu = g_menu_new ();

      g_menu_append (groups, section->title, action);
      for (guint i = 0; i < section->metrics->len; i++)
        {
          const MgMetricDef *def =
            mg_profile_get_metric (profile, g_array_index (section->metrics, guint, i));
          g_autofree char *name = mg_metric_visibility_action_name ("show-metric", def->id);
          g_autofree char *metric_action = g_strconcat ("win.", name, NULL);

          g_menu_append (submenu, def->display_name ? def->display_name : def->id, metric_action);
        }
      g_menu_append_submenu (metrics, section->title, G_MENU_MODEL (submenu));
    }
  g_menu_append_section (menu, _("Groups"), G_MENU_MODEL (groups));
  g_menu_append_section (menu, _("Metrics"), G_MENU_MODEL (metrics));
}

static void
append_unavailable (GMenu *menu, MgMetricVisibility *visibility)
{
  g_autoptr (GMenu) unavailable = g_menu_new ();
  guint n = mg_metric_visibility_get_n_unavailable (visibility);

  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    {
      const MgUnavailableGroup *group = mg_metric_visibility_get_unavailable (visibility, i);
      /* Translators: a metric group that has no graphs, and why. */
      g_autofree char *label = g_strdup_printf (_("%s — %s"), group->title, group->reason);

      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      /* A disabled action (mg-metric-visibility.h): the item shows insensitive. */
      g_menu_item_set_action_and_target_value (item, "win." MG_METRIC_VISIBILITY_UNAVAILABLE_ACTION,
                                               g_variant_new_string (group->id));
      g_menu_append_item (unavailable, item);
    }
  g_menu_append_section (menu, _("Unavailable"), G_MENU_MODEL (unavailable));
}

GMenuModel *
mg_metrics_menu_new (MgMetricVisibility *visibility)
{
  GMenu *menu = g_menu_new ();

  append_presets (menu, visibility);
  append_groups (menu, visibility);
  append_unavailable (menu, visibility);
  return G_MENU_MODEL (menu);
}
