/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MgTimeView: zoom, pan, history, selection and notifications. */
#include "plot/mg-time-view.h"

typedef struct {
  GPtrArray *names; /* notified property names, in order */
} Recorder;

static void
on_notify (GObject *object, GParamSpec *pspec, Recorder *rec)
{
  g_ptr_array_add (rec->names, g_strdup (pspec->name));
}

static gboolean
notified (Recorder *rec, const char *name)
{
  for (guint i = 0; i < rec->names->len; i++)
    if (g_str_equal (rec->names->pdata[i], name))
      return TRUE;
  return FALSE;
}

static void
assert_range (MgTimeView *view, double start, double end)
{
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_start (view), start, 1e-9);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_end (view), end, 1e-9);
}

static void
test_new (void)
{
  g_autoptr (MgTimeView) view = mg_time_view_new (10);
  double t0, t1;

  assert_range (view, 0, 10);
  g_assert_cmpfloat (mg_time_view_get_duration (view), ==, 10);
  g_assert_false (mg_time_view_get_has_selection (view));
  g_assert_cmpfloat (mg_time_view_get_hover_time (view), ==, -1);
  g_assert_cmpint (mg_time_view_get_process (view), ==, -1);
  g_assert_false (mg_time_view_get_auto_zoom_vertical (view));
  g_assert_false (mg_time_view_can_zoom_out (view));
  mg_time_view_get_figures_range (view, &t0, &t1);
  g_assert_cmpfloat (t0, ==, 0);
  g_assert_cmpfloat (t1, ==, 10);
}

static void
test_selection_and_history (void)
{
  g_autoptr (MgTimeView) view = mg_time_view_new (10);
  Recorder rec = { g_ptr_array_new_with_free_func (g_free) };
  double t0, t1;

  g_signal_connect (view, "notify", G_CALLBACK (on_notify), &rec);

  /* Reversed ends are put in order; clamped to the run. */
  mg_time_view_set_selection (view, 6, -3);
  g_assert_true (mg_time_view_get_has_selection (view));
  g_assert_cmpfloat (mg_time_view_get_selection_start (view), ==, 0);
  g_assert_cmpfloat (mg_time_view_get_selection_end (view), ==, 6);
  g_assert_true (notified (&rec, "has-selection"));
  g_assert_true (notified (&rec, "selection-end"));

  mg_time_view_set_selection (view, 2, 6);
  mg_time_view_get_figures_range (view, &t0, &t1);
  g_assert_cmpfloat (t0, ==, 2);
  g_assert_cmpfloat (t1, ==, 6);

  g_ptr_array_set_size (rec.names, 0);
  mg_time_view_zoom_to_selection (view);
  assert_range (view, 2, 6);
  g_assert_true (notified (&rec, "start"));
  g_assert_true (notified (&rec, "end"));
  g_assert_true (notified (&rec, "can-zoom-out"));
  g_assert_true (mg_time_view_can_zoom_out (view));

  mg_time_view_set_selection (view, 3, 4);
  mg_time_view_zoom_to_selection (view);
  assert_range (view, 3, 4);

  /* Back through the history... */
  mg_time_view_zoom_out (view);
  assert_range (view, 2, 6);
  mg_time_view_zoom_out (view);
  assert_range (view, 0, 10);
  g_assert_false (mg_time_view_can_zoom_out (view));

  /* ...and at its bottom, x2 around the centre up to the whole run. */
  mg_time_view_set_range (view, 4, 5);
  g_assert_true (mg_time_view_can_zoom_out (view));
  mg_time_view_zoom_out (view);
  assert_range (view, 3.5, 5.5);
  mg_time_view_zoom_out (view);
  assert_range (view, 2.5, 6.5);
  mg_time_view_zoom_out (view);
  mg_time_view_zoom_out (view);
  assert_range (view, 0, 10);

  mg_time_view_clear_selection (view);
  g_assert_false (mg_time_view_get_has_selection (view));
  g_assert_cmpint (mg_time_view_get_figures_range (view, &t0, &t1), ==, MG_FIGURES_RANGE_RUN);
  g_assert_cmpfloat (t0, ==, 0);
  g_assert_cmpfloat (t1, ==, 10);

  /* Zoomed in, no selection: the figures describe what is visible. */
  mg_time_view_set_range (view, 2.5, 4);
  g_assert_cmpint (mg_time_view_get_figures_range (view, &t0, &t1), ==, MG_FIGURES_RANGE_VISIBLE);
  g_assert_cmpfloat (t0, ==, 2.5);
  g_assert_cmpfloat (t1, ==, 4);
  {
    g_autofree char *text = mg_time_view_describe_figures_range (view);

    g_assert_cmpstr (text, ==, "Figures of the visible range: 2.5 s to 4 s (1.5 s)");
  }
  /* A selection wins over the visible range, even one reaching past it. */
  mg_time_view_set_selection (view, 3, 7);
  g_assert_cmpint (mg_time_view_get_figures_range (view, &t0, &t1), ==, MG_FIGURES_RANGE_SELECTION);
  g_assert_cmpfloat (t0, ==, 3);
  g_assert_cmpfloat (t1, ==, 7);
  {
    g_autofree char *text = mg_time_view_describe_figures_range (view);

    g_assert_cmpstr (text, ==, "Figures of the selection: 3 s to 7 s (4 s)");
  }
  mg_time_view_reset (view);
  {
    g_autofree char *text = mg_time_view_describe_figures_range (view);

    g_assert_cmpstr (text, ==, "Figures of the whole run: 0 s to 10 s (10 s)");
  }

  /* No selection: zoom_to_selection does nothing. */
  g_ptr_array_set_size (rec.names, 0);
  mg_time_view_zoom_to_selection (view);
  g_assert_cmpuint (rec.names->len, ==, 0);
  g_ptr_array_unref (rec.names);
}

static void
test_zoom_around_and_pan (void)
{
  g_autoptr (MgTimeView) view = mg_time_view_new (100);

  /* Time 20 stays where it is on screen (20 % across). */
  mg_time_view_zoom_around (view, 20, 0.5);
  assert_range (view, 10, 60);
  mg_time_view_pan (view, 15);
  assert_range (view, 25, 75);
  /* Clamped at the end without shrinking. */
  mg_time_view_pan (view, 1000);
  assert_range (view, 50, 100);
  mg_time_view_pan (view, -1000);
  assert_range (view, 0, 50);
  /* Zooming out past the run gives the whole run. */
  mg_time_view_zoom_around (view, 25, 10);
  assert_range (view, 0, 100);
  /* A huge zoom in is bounded, never an empty range. */
  mg_time_view_zoom_around (view, 50, 1e-12);
  g_assert_cmpfloat (mg_time_view_get_end (view) - mg_time_view_get_start (view), >, 0);

  mg_time_view_set_selection (view, 10, 20);
  mg_time_view_zoom_to_selection (view);
  mg_time_view_reset (view);
  assert_range (view, 0, 100);
  g_assert_false (mg_time_view_get_has_selection (view));
  g_assert_false (mg_time_view_can_zoom_out (view));
}

static void
test_other_properties (void)
{
  g_autoptr (MgTimeView) view = mg_time_view_new (10);
  Recorder rec = { g_ptr_array_new_with_free_func (g_free) };
  double hover;
  int process;
  gboolean auto_zoom;

  g_signal_connect (view, "notify", G_CALLBACK (on_notify), &rec);
  mg_time_view_set_hover_time (view, 4.5);
  mg_time_view_set_hover_time (view, 4.5); /* no change, no notification */
  mg_time_view_set_process (view, 3);
  mg_time_view_set_auto_zoom_vertical (view, TRUE);
  g_assert_cmpuint (rec.names->len, ==, 3);
  g_assert_cmpstr (rec.names->pdata[0], ==, "hover-time");
  g_assert_cmpstr (rec.names->pdata[1], ==, "process");
  g_assert_cmpstr (rec.names->pdata[2], ==, "auto-zoom-vertical");

  g_object_get (view, "hover-time", &hover, "process", &process, "auto-zoom-vertical",
                &auto_zoom, NULL);
  g_assert_cmpfloat (hover, ==, 4.5);
  g_assert_cmpint (process, ==, 3);
  g_assert_true (auto_zoom);

  mg_time_view_set_hover_time (view, -7);
  g_assert_cmpfloat (mg_time_view_get_hover_time (view), ==, -1);
  mg_time_view_set_process (view, -5);
  g_assert_cmpint (mg_time_view_get_process (view), ==, -1);

  /* A new duration resets the view. */
  mg_time_view_set_range (view, 2, 3);
  mg_time_view_set_duration (view, 20);
  assert_range (view, 0, 20);
  g_object_set (view, "start", 5.0, "end", 15.0, NULL);
  assert_range (view, 5, 15);
  g_ptr_array_unref (rec.names);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/time-view/new", test_new);
  g_test_add_func ("/time-view/selection-and-history", test_selection_and_history);
  g_test_add_func ("/time-view/zoom-around-and-pan", test_zoom_around_and_pan);
  g_test_add_func ("/time-view/other-properties", test_other_properties);
  return g_test_run ();
}
