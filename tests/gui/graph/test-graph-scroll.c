/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Graph rows in a scrolled window (under Xvfb): rows out of view are left
 * out of a frame and drawn when they scroll in, after a change of the view
 * made while they were out, and when the window grows. Run once with the
 * cairo renderer (cairo nodes) and once with GL (textures):
 *   test-graph-scroll --renderer=cairo|gl */
#include "mg-config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "graph-fixture.h"
#include "graph-test-util.h"
#include "gui/graph/mg-metric-graph.h"
#include "mg-test-common.h"

#define N_ROWS 12
#define ROW_HEIGHT 80

typedef struct {
  MgProfile *profile;
  MgTimeView *view;
  GtkWidget *window;
  GtkWidget *scroller;
  GtkWidget *graphs[N_ROWS];
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gint64 deadline;

  f->profile = graph_fixture_profile (4, N_ROWS, 300, 10, FALSE);
  f->view = mg_time_view_new (mg_profile_get_run_info (f->profile)->duration_s);
  f->window = gtk_window_new ();
  f->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (f->scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_ALWAYS);
  for (guint i = 0; i < N_ROWS; i++)
    {
      f->graphs[i] = mg_metric_graph_new (f->profile, i, f->view);
      gtk_widget_set_size_request (f->graphs[i], 300, ROW_HEIGHT);
      gtk_box_append (GTK_BOX (box), f->graphs[i]);
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (f->scroller), box);
  gtk_window_set_child (GTK_WINDOW (f->window), f->scroller);
  /* Room for three rows of twelve. */
  gtk_window_set_default_size (GTK_WINDOW (f->window), 320, 3 * ROW_HEIGHT);
  gtk_window_present (GTK_WINDOW (f->window));

  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (gtk_widget_get_width (f->graphs[0]) == 0 && g_get_monotonic_time () < deadline)
    mg_test_spin (10);
  g_assert_cmpint (gtk_widget_get_width (f->graphs[0]), >, 0);
  g_test_message ("renderer: %s",
                  G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (f->window))));
  mg_test_spin (200);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  mg_test_spin (20);
  g_object_unref (f->view);
  g_object_unref (f->profile);
}

/* The scrolled window as drawn now, by the window's renderer. */
static GdkTexture *
render_scroller (Fixture *f)
{
  int w = gtk_widget_get_width (f->scroller), h = gtk_widget_get_height (f->scroller);
  GdkPaintable *paintable = gtk_widget_paintable_new (f->scroller);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (f->scroller));
  GskRenderNode *node;
  GdkTexture *texture;

  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  gsk_render_node_unref (node);
  g_object_unref (paintable);
  return texture;
}

/* Coloured pixels (not white, grey or black) where graph `row` lies in the
 * scrolled window: its band and line, if it was drawn. */
static guint
coloured_pixels (Fixture *f, guint row)
{
  g_autoptr (GdkTexture) texture = render_scroller (f);
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  g_autofree guint8 *data = g_malloc ((gsize) w * h * 4);
  graphene_rect_t bounds;
  guint n = 0;

  g_assert_true (gtk_widget_compute_bounds (f->graphs[row], f->scroller, &bounds));
  gdk_texture_download (texture, data, (gsize) w * 4);
  for (int y = MAX (0, (int) bounds.origin.y);
       y < MIN (h, (int) (bounds.origin.y + bounds.size.height)); y++)
    for (int x = MAX (0, (int) bounds.origin.x);
         x < MIN (w, (int) (bounds.origin.x + bounds.size.width)); x++)
      {
        const guint8 *p = data + ((gsize) y * w + x) * 4;
        int hi = MAX (MAX (p[0], p[1]), p[2]), lo = MIN (MIN (p[0], p[1]), p[2]);

        if (hi - lo > 40)
          n++;
      }
  return n;
}

static void
scroll_to (Fixture *f, guint row)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (f->scroller));

  gtk_adjustment_set_value (adjustment, row * ROW_HEIGHT);
  mg_test_spin (200);
}

static gboolean
in_view (Fixture *f, guint row)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (f->graphs[row], f->scroller, &bounds));
  return bounds.origin.y < gtk_widget_get_height (f->scroller)
         && bounds.origin.y + bounds.size.height > 0;
}

static void
test_scroll_in (Fixture *f, gconstpointer data)
{
  g_assert_true (in_view (f, 0));
  g_assert_false (in_view (f, N_ROWS - 1));
  g_assert_cmpuint (coloured_pixels (f, 0), >, 500);

  /* The last row was out of the first frame; scrolled in, it is drawn. */
  scroll_to (f, N_ROWS - 3);
  g_assert_true (in_view (f, N_ROWS - 1));
  g_assert_false (in_view (f, 0));
  g_assert_cmpuint (coloured_pixels (f, N_ROWS - 1), >, 500);
  g_assert_cmpuint (coloured_pixels (f, N_ROWS - 2), >, 500);

  /* Zoomed while row 0 was out of view: back in view, it shows the new
   * range (drawn now, not an old picture or nothing). */
  mg_time_view_zoom_around (f->view, 5, 0.5);
  mg_test_spin (100);
  scroll_to (f, 0);
  g_assert_true (in_view (f, 0));
  g_assert_cmpuint (coloured_pixels (f, 0), >, 500);
  g_assert_cmpuint (coloured_pixels (f, 2), >, 500);
}

static void
test_window_grows (Fixture *f, gconstpointer data)
{
  g_assert_false (in_view (f, 5));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 320, 7 * ROW_HEIGHT);
  mg_test_spin (300);
  g_assert_true (in_view (f, 5));
  g_assert_cmpuint (coloured_pixels (f, 5), >, 500);
}

int
main (int argc, char **argv)
{
  const char *renderer = "cairo";

  for (int i = 1; i < argc; i++)
    if (g_str_has_prefix (argv[i], "--renderer="))
      renderer = argv[i] + strlen ("--renderer=");
  if (!graph_test_init (&argc, &argv, renderer))
    return g_test_run ();
  g_test_add ("/graph-scroll/scroll-in", Fixture, NULL, fixture_setup, test_scroll_in,
              fixture_teardown);
  g_test_add ("/graph-scroll/window-grows", Fixture, NULL, fixture_setup, test_window_grows,
              fixture_teardown);
  return g_test_run ();
}
