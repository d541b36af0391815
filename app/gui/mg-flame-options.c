/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-flame-options.h"

#define KEY_ORIENTATION "flame-orientation"
#define KEY_COLOURING "flame-colour"

typedef struct {
  MgFlameView *flame; /* not owned: the button lives inside the same pane */
  GSettings *settings; /* NULL where the schema is not installed */
} FlameOptions;

static void
flame_options_free (FlameOptions *options)
{
  g_clear_object (&options->settings);
  g_free (options);
}

static GSettings *
new_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, MG_APP_ID, TRUE);
  return schema ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

static MgFlameOrientation
orientation_of (const char *name)
{
  return g_strcmp0 (name, "flame") == 0 ? MG_FLAME_FLAME : MG_FLAME_ICICLE;
}

static void
on_orientation (GSimpleAction *action, GVariant *state, gpointer data)
{
  FlameOptions *options = data;
  const char *name = g_variant_get_string (state, NULL);

  /* Only the two known names: a stray one reads as the default. */
  MgFlameOrientation orientation = orientation_of (name);
  g_simple_action_set_state (action, g_variant_new_string (
                                       orientation == MG_FLAME_FLAME ? "flame" : "icicle"));
  mg_flame_view_set_orientation (options->flame, orientation);
  if (options->settings)
    g_settings_set_string (options->settings, KEY_ORIENTATION,
                           orientation == MG_FLAME_FLAME ? "flame" : "icicle");
}

static MgFlameColouring
colouring_of (const char *name)
{
  return g_strcmp0 (name, "activity") == 0 ? MG_FLAME_BY_ACTIVITY : MG_FLAME_BY_MODULE;
}

static void
on_colouring (GSimpleAction *action, GVariant *state, gpointer data)
{
  FlameOptions *options = data;
  MgFlameColouring colouring = colouring_of (g_variant_get_string (state, NULL));
  const char *name = colouring == MG_FLAME_BY_ACTIVITY ? "activity" : "module";

  g_simple_action_set_state (action, g_variant_new_string (name));
  mg_flame_view_set_colouring (options->flame, colouring);
  if (options->settings)
    g_settings_set_string (options->settings, KEY_COLOURING, name);
}

static GMenuModel *
build_menu (void)
{
  GMenu *menu = g_menu_new ();
  GMenu *orientation = g_menu_new ();

  /* Translators: the flame graph drawn with everything on top, callees below */
  g_menu_append (orientation, _("Icicle (Root on Top)"), "flame-options.orientation::icicle");
  /* Translators: the flame graph drawn with everything at the bottom, callees above */
  g_menu_append (orientation, _("Flame (Root at Bottom)"), "flame-options.orientation::flame");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (orientation));
  g_object_unref (orientation);
  GMenu *colouring = g_menu_new ();
  /* Translators: flame graph boxes coloured by the library or program they are in */
  g_menu_append (colouring, _("Colour by Module"), "flame-options.colouring::module");
  /* Translators: flame graph boxes coloured green (computing) to blue (waiting in MPI) */
  g_menu_append (colouring, _("Colour by Activity (Computing, MPI)"),
                 "flame-options.colouring::activity");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (colouring));
  g_object_unref (colouring);
  return G_MENU_MODEL (menu);
}

GtkWidget *
mg_flame_options_new (MgFlameView *flame)
{
  FlameOptions *options = g_new0 (FlameOptions, 1);
  GtkWidget *button = gtk_menu_button_new ();
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr (GMenuModel) menu = build_menu ();
  g_autofree char *saved = NULL;

  options->flame = flame;
  options->settings = new_settings ();
  saved = options->settings ? g_settings_get_string (options->settings, KEY_ORIENTATION)
                            : g_strdup ("icicle");
  g_autoptr (GSimpleAction) orientation = g_simple_action_new_stateful (
    "orientation", G_VARIANT_TYPE_STRING, g_variant_new_string (saved));
  g_signal_connect (orientation, "change-state", G_CALLBACK (on_orientation), options);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (orientation));
  mg_flame_view_set_orientation (flame, orientation_of (saved));
  g_autofree char *colour = options->settings
                              ? g_settings_get_string (options->settings, KEY_COLOURING)
                              : g_strdup ("module");
  g_autoptr (GSimpleAction) colouring = g_simple_action_new_stateful (
    "colouring", G_VARIANT_TYPE_STRING, g_variant_new_string (colour));
  g_signal_connect (colouring, "change-state", G_CALLBACK (on_colouring), options);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (colouring));
  mg_flame_view_set_colouring (flame, colouring_of (colour));

  g_object_set_data_full (G_OBJECT (button), "mg-flame-options", options,
                          (GDestroyNotify) flame_options_free);
  gtk_widget_insert_action_group (button, "flame-options", G_ACTION_GROUP (group));
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-more-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), menu);
  gtk_widget_set_tooltip_text (button, _("How the flame graph is drawn"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Flame Graph Options"), -1);
  return button;
}
