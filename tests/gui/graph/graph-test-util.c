/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "graph-test-util.h"

#include <string.h>

cairo_surface_t *
graph_test_render_widget (GtkWidget *widget)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  GdkPaintable *paintable;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;
  GskRenderNode *node;
  GdkTexture *texture;
  cairo_surface_t *surface;
  int w, h;

  /* Drawn at all only once laid out: a widget made or resized by the
   * last action (a range, a theme) is allocated at the next frame, later
   * on a loaded machine. */
  for (;;)
    {
      w = gtk_widget_get_width (widget);
      h = gtk_widget_get_height (widget);
      paintable = gtk_widget_paintable_new (widget);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, w, h);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node != NULL || g_get_monotonic_time () > deadline)
        break;
      g_object_unref (paintable);
      g_main_context_iteration (NULL, FALSE);
    }
  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  gdk_texture_download (texture, cairo_image_surface_get_data (surface),
                        cairo_image_surface_get_stride (surface));
  cairo_surface_mark_dirty (surface);
  g_object_unref (texture);
  gsk_render_node_unref (node);
  g_object_unref (paintable);
  return surface;
}

gboolean
graph_test_press_key (GtkWidget *widget, guint keyval)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        g_signal_emit_by_name (controller, "key-pressed", keyval, 0, (GdkModifierType) 0,
                               &handled);
    }
  return handled;
}

static GLogWriterOutput
drop_no_session_bus (GLogLevelFlags level, const GLogField *fields, gsize n_fields,
                     gpointer user_data)
{
  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].length < 0
        && strstr (fields[i].value, "Unable to acquire session bus") != NULL)
      return G_LOG_WRITER_HANDLED;
  return g_log_writer_default (level, fields, n_fields, user_data);
}

gboolean
graph_test_init (int *argc, char ***argv, const char *renderer)
{
  g_setenv ("GSK_RENDERER", renderer, TRUE);
  g_setenv ("GTK_THEME", "Adwaita", TRUE);
  g_setenv ("GTK_A11Y", "test", TRUE);
  g_log_set_writer_func (drop_no_session_bus, NULL, NULL);
  g_test_init (argc, argv, NULL);
  if (gtk_init_check ())
    return TRUE;
  g_test_skip ("no display (run under xvfb-run)");
  return FALSE;
}
