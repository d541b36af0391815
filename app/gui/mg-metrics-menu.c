/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Metrics menu model, and the widgets of its custom items: the groups'
 * check buttons and the unavailable groups. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-metrics-menu.h"

#include "mg-tooltip.h"
#include "profile/mg-unavailable.h"

/* The custom item id of the i-th unavailable group. */
#define UNAVAILABLE_ID "unavailable-%u"
/* The custom item id of the i-th group's check button. */
#define GROUP_ID "group-%u"
/* Reasons wrap at this width, so the popover stays narrow. */
#define REASON_WIDTH_CHARS 36

/* Menu labels are parsed for mnemonics: an underscore in a name from a
 * definition file must stay an underscore. */
static char *
escape_label (const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "_", -1);

  return g_strjoinv ("__", parts);
}

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
      g_autofree char *title = escape_label (section->title);

      /* MAP's naming: "Preset: <metricGroup displayName>". */
      label = g_strdup_printf (_("Preset: %s"), title);
      /* The Default group's item is the default preset, which adds the MPI
       * groups in an MPI run. */
      target = (int) s == mg_metric_visibility_get_default_section (visibility)
                 ? g_strdup ("default") : g_strconcat ("group:", section->id, NULL);
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
      g_autofree char *title = escape_label (section->title);

      /* A check button, not a menu item: it leaves the menu open, so that
       * several groups are shown or hidden in one go. */
      {
        g_autoptr (GMenuItem) item = g_menu_item_new (NULL, NULL);
        g_autofree char *id = g_strdup_printf (GROUP_ID, s);

        g_menu_item_set_attribute (item, "custom", "s", id);
        g_menu_append_item (groups, item);
      }
      for (guint i = 0; i < section->metrics->len; i++)
        {
          const MgMetricDef *def =
            mg_profile_get_metric (profile, g_array_index (section->metrics, guint, i));
          g_autofree char *name = mg_metric_visibility_action_name ("show-metric", def->id);
          g_autofree char *metric_action = g_strconcat ("win.", name, NULL);
          g_autofree char *metric_label = escape_label (def->display_name ? def->display_name
                                                                          : def->id);

          g_menu_append (submenu, metric_label, metric_action);
        }
      g_menu_append_submenu (metrics, title, G_MENU_MODEL (submenu));
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
  /* Custom items (mg_metrics_menu_add_widgets): a title and the reason
   * wrapped beneath it, as plain text. */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (NULL, NULL);
      g_autofree char *id = g_strdup_printf (UNAVAILABLE_ID, i);

      g_menu_item_set_attribute (item, "custom", "s", id);
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

/* An unavailable group: its title, dimmed, and the short reason beneath
 * (the whole reason is the tooltip). Labels, not menu items: no mnemonics,
 * and the reason wraps. */
static GtkWidget *
unavailable_widget (const MgUnavailableGroup *group)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (group->title);
  g_autofree char *name = NULL, *reason = NULL;
  GtkWidget *reason_label;

  mg_unavailable_split (group->reason, &name, &reason);
  reason_label = gtk_label_new (reason);
  gtk_widget_add_css_class (box, "unavailable-group");
  gtk_widget_add_css_class (title, "dim-label");
  gtk_widget_add_css_class (reason_label, "dim-label");
  gtk_widget_add_css_class (reason_label, "caption");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (reason_label), 0);
  gtk_label_set_wrap (GTK_LABEL (reason_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (reason_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (reason_label), REASON_WIDTH_CHARS);
  gtk_label_set_width_chars (GTK_LABEL (reason_label), MIN ((int) g_utf8_strlen (reason, -1),
                                                            REASON_WIDTH_CHARS));
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), reason_label);
  mg_tooltip_set_text (box, group->reason);
  return box;
}

/* A group's switch, bound to its stateful action (win.show-group.<id>);
 * its title as written (no mnemonic). */
static GtkWidget *
group_widget (const MgMetricSection *section)
{
  GtkWidget *check = gtk_check_button_new_with_label (section->title);
  g_autofree char *action = g_strconcat ("win.", section->action_name, NULL);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (check), action);
  gtk_widget_add_css_class (check, "metrics-group");
  gtk_widget_set_hexpand (check, TRUE);
  return check;
}

void
mg_metrics_menu_add_widgets (GtkPopoverMenu *popover, MgMetricVisibility *visibility)
{
  for (guint s = 0; s < mg_metric_visibility_get_n_sections (visibility); s++)
    {
      g_autofree char *id = g_strdup_printf (GROUP_ID, s);

      gtk_popover_menu_add_child (popover,
                                  group_widget (mg_metric_visibility_get_section (visibility, s)),
                                  id);
    }
  for (guint i = 0; i < mg_metric_visibility_get_n_unavailable (visibility); i++)
    {
      g_autofree char *id = g_strdup_printf (UNAVAILABLE_ID, i);

      gtk_popover_menu_add_child (popover,
                                  unavailable_widget (mg_metric_visibility_get_unavailable (visibility, i)),
                                  id);
    }
}
