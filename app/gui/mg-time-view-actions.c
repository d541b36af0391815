/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-time-view-actions.h"

/* A quarter of the view per pan step. */
#define PAN_FRACTION 0.25

static void
on_zoom_in (GSimpleAction *action, GVariant *parameter, gpointer view)
{
  double centre = (mg_time_view_get_start (view) + mg_time_view_get_end (view)) / 2;

  mg_time_view_zoom_around (view, centre, 0.5);
}

static void
on_zoom_out (GSimpleAction *action, GVariant *parameter, gpointer view)
{
  mg_time_view_zoom_out (view);
}

static void
on_zoom_selection (GSimpleAction *action, GVariant *parameter, gpointer view)
{
  mg_time_view_zoom_to_selection (view);
}

static void
on_zoom_reset (GSimpleAction *action, GVariant *parameter, gpointer view)
{
  mg_time_view_reset (view);
}

static void
on_clear_selection (GSimpleAction *action, GVariant *parameter, gpointer view)
{
  mg_time_view_clear_selection (view);
}

static void
pan_by (MgTimeView *view, double fraction)
{
  double width = mg_time_view_get_end (view) - mg_time_view_get_start (view);

  mg_time_view_pan (view, width * fraction);
}

static void
on_pan_left (GSimpleAction *action, GVariant *parameter, gpointer view)
{
  pan_by (view, -PAN_FRACTION);
}

static void
on_pan_right (GSimpleAction *action, GVariant *parameter, gpointer view)
{
  pan_by (view, PAN_FRACTION);
}

static const GActionEntry entries[] = {
  { "zoom-in", on_zoom_in, NULL, NULL, NULL, { 0 } },
  { "zoom-out", on_zoom_out, NULL, NULL, NULL, { 0 } },
  { "zoom-selection", on_zoom_selection, NULL, NULL, NULL, { 0 } },
  { "zoom-reset", on_zoom_reset, NULL, NULL, NULL, { 0 } },
  { "clear-selection", on_clear_selection, NULL, NULL, NULL, { 0 } },
  { "pan-left", on_pan_left, NULL, NULL, NULL, { 0 } },
  { "pan-right", on_pan_right, NULL, NULL, NULL, { 0 } },
};

static void
set_enabled (GActionMap *map, const char *name, gboolean enabled)
{
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, name)), enabled);
}

static void
on_view_notify (GActionMap *map, GParamSpec *pspec, MgTimeView *view)
{
  gboolean zoomed = mg_time_view_get_start (view) > 0 ||
                    mg_time_view_get_end (view) < mg_time_view_get_duration (view);

  set_enabled (map, "zoom-selection", mg_time_view_get_has_selection (view));
  /* Escape is the window's only while there is a selection to clear: else
   * it reaches the focused widget (the flame graph zooms out with it). */
  set_enabled (map, "clear-selection", mg_time_view_get_has_selection (view));
  set_enabled (map, "zoom-out", zoomed || mg_time_view_can_zoom_out (view));
}

void
mg_time_view_actions_add (GActionMap *map, MgTimeView *view)
{
  g_action_map_add_action_entries (map, entries, G_N_ELEMENTS (entries), view);
  g_signal_connect_object (view, "notify", G_CALLBACK (on_view_notify), map, G_CONNECT_SWAPPED);
  on_view_notify (map, NULL, view);
}
