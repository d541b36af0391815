/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MgThreadStrip in a real window (under Xvfb) on a profile of known
 * per-thread phases (activity_fixture_threads_profile): the classes read
 * back from its model, the pixels of one window per thread and phase
 * through GTK's renderer in the light and the dark theme, the zoom
 * followed, the tooltip's text, the process followed. */
#include "mg-config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "activity-fixture.h"
#include "gui/graph/mg-thread-strip.h"
#include "plot/mg-graph-render.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-stack-set.h"
#include "graph-test-util.h"
#include "mg-test-common.h"
#include "stacks-fixture.h"

#define STRIP_WIDTH 400

/* Per thread, per phase (activity-fixture.h). */
static const guint8 want[ACTIVITY_FIXTURE_THREADS][4] = {
  { MG_THREAD_COMPUTING, MG_THREAD_MPI, MG_THREAD_WAITING, MG_THREAD_IO },
  { MG_THREAD_COMPUTING, MG_THREAD_COMPUTING, MG_THREAD_COMPUTING, MG_THREAD_COMPUTING },
  { MG_THREAD_COMPUTING, MG_THREAD_MPI, MG_THREAD_OFF_CPU, MG_THREAD_COMPUTING },
};

typedef struct {
  MgProfile *profile;
  MgTimeView *view;
  GtkWidget *window;
  GtkWidget *strip;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  gint64 deadline;

  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme",
                GPOINTER_TO_INT (data), NULL);
  f->profile = activity_fixture_threads_profile ();
  f->view = mg_time_view_new (mg_profile_get_run_info (f->profile)->duration_s);
  f->window = gtk_window_new ();
  f->strip = mg_thread_strip_new (f->profile, f->view);
  gtk_widget_set_size_request (f->strip, STRIP_WIDTH, -1);
  gtk_window_set_child (GTK_WINDOW (f->window), f->strip);
  gtk_window_set_resizable (GTK_WINDOW (f->window), FALSE);
  gtk_window_present (GTK_WINDOW (f->window));
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (gtk_widget_get_width (f->strip) == 0 && g_get_monotonic_time () < deadline)
    mg_test_spin (10);
  g_assert_cmpint (gtk_widget_get_width (f->strip), ==, STRIP_WIDTH);
  mg_test_spin (50);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  mg_test_spin (20);
  g_object_unref (f->view);
  g_object_unref (f->profile);
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
}

static void
assert_rgb (cairo_surface_t *surface, int x, int y, const double rgb[3], const char *what)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 v = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);
  int r = (v >> 16) & 0xff, g = (v >> 8) & 0xff, b = v & 0xff;

  if (abs (r - (int) lround (rgb[0] * 255)) > 2 || abs (g - (int) lround (rgb[1] * 255)) > 2
      || abs (b - (int) lround (rgb[2] * 255)) > 2)
    g_error ("pixel (%d, %d) is #%02x%02x%02x, not %s's colour", x, y, r, g, b, what);
}

static void
assert_class (cairo_surface_t *surface, int x, int y, MgThreadClass klass)
{
  double rgb[3];

  mg_thread_strip_class_colour (klass, rgb);
  assert_rgb (surface, x, y, rgb, mg_thread_class_name (klass));
}

/* The middle of row r's strip, and the gap under it. */
static int
strip_y (guint r)
{
  return MG_THREAD_STRIP_LEGEND_HEIGHT + (int) r * MG_THREAD_STRIP_PITCH + 6;
}

/* Every thread's class per phase, from the model and on screen: one
 * window per thread and phase (x = 50, 150, 250, 350 px of 400 over 4 s),
 * the background in the gap between strips; then zoomed into the second
 * half. The same in the light and the dark theme (data). */
static void
test_pixels (Fixture *f, gconstpointer data)
{
  MgThreadStrip *strip = MG_THREAD_STRIP (f->strip);
  const MgThreadStrips *strips = mg_thread_strip_get_strips (strip);
  MgRgba bg = mg_graph_render_background (GPOINTER_TO_INT (data));
  double bg_rgb[3] = { bg.r, bg.g, bg.b };
  cairo_surface_t *surface;

  g_assert_nonnull (strips);
  g_assert_cmpuint (mg_thread_strips_get_n_rows (strips), ==, ACTIVITY_FIXTURE_THREADS);
  g_assert_cmpint (gtk_widget_get_height (f->strip), ==,
                   MG_THREAD_STRIP_LEGEND_HEIGHT
                     + ACTIVITY_FIXTURE_THREADS * MG_THREAD_STRIP_PITCH);
  surface = graph_test_render_widget (f->strip);
  for (guint r = 0; r < ACTIVITY_FIXTURE_THREADS; r++)
    {
      guint8 classes[4];

      mg_thread_strips_columns (strips, r, 0, ACTIVITY_FIXTURE_DURATION, 4, classes);
      for (guint phase = 0; phase < 4; phase++)
        {
          g_assert_cmpuint (classes[phase], ==, want[r][phase]);
          assert_class (surface, 50 + 100 * (int) phase, strip_y (r), want[r][phase]);
        }
      assert_rgb (surface, 50, strip_y (r) + 8, bg_rgb, "the background");
    }
  cairo_surface_destroy (surface);

  mg_time_view_set_range (f->view, 2, 4);
  mg_test_spin (20);
  surface = graph_test_render_widget (f->strip);
  assert_class (surface, 100, strip_y (2), MG_THREAD_OFF_CPU);
  assert_class (surface, 300, strip_y (2), MG_THREAD_COMPUTING);
  assert_class (surface, 100, strip_y (0), MG_THREAD_WAITING);
  assert_class (surface, 300, strip_y (0), MG_THREAD_IO);
  cairo_surface_destroy (surface);
}

/* The tooltip names the thread, the window and the shares, and says what
 * Off CPU stands for where the stacks are the source. */
static void
test_describe (Fixture *f, gconstpointer data)
{
  MgThreadStrip *strip = MG_THREAD_STRIP (f->strip);
  g_autofree char *off = mg_thread_strip_describe (strip, 2, 2.42);
  g_autofree char *main_text = mg_thread_strip_describe (strip, 0, 3.5);
  g_autofree char *after = mg_thread_strip_describe (strip, 1, 4.5);

  g_assert_true (g_str_has_prefix (off, "Thread 2, 2.40–2.44 s: Computing 0 %, MPI 0 %, "
                                        "Off CPU 100 %\n"));
  g_assert_nonnull (strstr (off, "do not tell these apart"));
  g_assert_cmpstr (main_text, ==,
                   "Main Thread, 3.48–3.52 s: Computing 0 %, MPI 0 %, I/O 100 %, Waiting 0 %");
  g_assert_null (after);
  g_assert_cmpint (mg_thread_strip_row_at (strip, strip_y (1)), ==, 1);
  g_assert_cmpint (mg_thread_strip_row_at (strip, 3), ==, -1);
}

/* Every process chosen: rank 0's threads, marked as the default; a
 * process chosen: its own. A process without stacks has only the main
 * thread's strip (from its activity metrics): test-thread-strips. */
static void
count_changes (MgThreadStrip *strip, guint *n)
{
  (*n)++;
}

static void
test_process (Fixture *f, gconstpointer data)
{
  MgThreadStrip *strip = MG_THREAD_STRIP (f->strip);
  guint changed = 0;

  g_signal_connect (strip, "strips-changed", G_CALLBACK (count_changes), &changed);
  g_assert_true (mg_thread_strip_is_default_process (strip));
  g_assert_cmpint (mg_thread_strips_get_process (mg_thread_strip_get_strips (strip)), ==, 0);
  mg_time_view_set_process (f->view, 0);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_false (mg_thread_strip_is_default_process (strip));
  g_assert_cmpuint (mg_thread_strips_get_n_rows (mg_thread_strip_get_strips (strip)), ==,
                    ACTIVITY_FIXTURE_THREADS);
  mg_time_view_set_process (f->view, -1);
  g_assert_cmpuint (changed, ==, 2);
  g_assert_true (mg_thread_strip_is_default_process (strip));
}

/* A click selects the windows of the thread under it: 400 px over 4 s,
 * x = 241 is 2.41 s, in window (2.40, 2.44]; the legend or past the run
 * select nothing. */
static void
test_click (Fixture *f, gconstpointer data)
{
  MgThreadStrip *strip = MG_THREAD_STRIP (f->strip);
  double start, end;

  g_assert_true (mg_thread_strip_select_at (strip, 241, strip_y (2)));
  g_object_get (f->view, "selection-start", &start, "selection-end", &end, NULL);
  g_assert_cmpfloat_with_epsilon (start, 2.40, 1e-9);
  g_assert_cmpfloat_with_epsilon (end, 2.44, 1e-9);
  g_assert_false (mg_thread_strip_select_at (strip, 100, 4));
  mg_time_view_set_duration (f->view, 8);
  mg_time_view_set_range (f->view, 0, 8);
  g_assert_false (mg_thread_strip_select_at (strip, 399, strip_y (1)));
  g_object_get (f->view, "selection-start", &start, NULL);
  g_assert_cmpfloat_with_epsilon (start, 2.40, 1e-9);
}

/* The keys: Down twice to thread 2 (not past the last), the cursor by
 * hundredths of the view (10 ms over [2, 3] s) to 2.41 s, Enter selecting
 * thread 2's window there (as the tooltip names it), Escape clearing. */
static void
test_keys (Fixture *f, gconstpointer data)
{
  MgThreadStrip *strip = MG_THREAD_STRIP (f->strip);
  g_autofree char *text = NULL;
  double start, end;

  g_assert_true (gtk_widget_get_focusable (f->strip));
  mg_time_view_set_range (f->view, 2, 3);
  mg_time_view_set_hover_time (f->view, -1);
  g_assert_false (graph_test_press_key (f->strip, GDK_KEY_Up));
  g_assert_true (graph_test_press_key (f->strip, GDK_KEY_Down));
  g_assert_true (graph_test_press_key (f->strip, GDK_KEY_Down));
  g_assert_false (graph_test_press_key (f->strip, GDK_KEY_Down));
  g_assert_cmpuint (mg_thread_strip_get_key_row (strip), ==, 2);
  for (guint i = 0; i < 42; i++)
    g_assert_true (graph_test_press_key (f->strip, GDK_KEY_Right));
  g_assert_true (graph_test_press_key (f->strip, GDK_KEY_Left));
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_hover_time (f->view), 2.41, 1e-9);
  /* 2.41 is in window 60, (2.40, 2.44]: thread 2 off CPU. */
  text = mg_thread_strip_describe (strip, 2, 2.41);
  g_assert_true (g_str_has_prefix (text, "Thread 2, 2.40–2.44 s: "));
  g_assert_true (graph_test_press_key (f->strip, GDK_KEY_Return));
  g_object_get (f->view, "selection-start", &start, "selection-end", &end, NULL);
  g_assert_cmpfloat_with_epsilon (start, 2.40, 1e-9);
  g_assert_cmpfloat_with_epsilon (end, 2.44, 1e-9);
  g_assert_true (graph_test_press_key (f->strip, GDK_KEY_Escape));
  g_assert_false (mg_time_view_get_has_selection (f->view));
  g_assert_false (graph_test_press_key (f->strip, GDK_KEY_Escape));
}

/* A process of 40 threads, each computing in every window. */
static MgProfile *
many_threads_profile (guint n_threads)
{
  MgProfile *profile = activity_fixture_profile (1);
  g_autoptr (GString) description =
    g_string_new ("process 0\nwindows 0.." G_STRINGIFY (ACTIVITY_FIXTURE_DURATION) "\n");

  for (guint t = 0; t < n_threads; t++)
    g_string_append_printf (description, "0 0x1000 100 thread %u\n", t);
  stacks_fixture_set (profile, description->str);
  return profile;
}

/* 40 threads: all in the model, the first 32 drawn, the widget as high
 * as those. */
static void
test_many_threads (void)
{
  g_autoptr (MgProfile) profile = many_threads_profile (40);
  g_autoptr (MgTimeView) view = mg_time_view_new (ACTIVITY_FIXTURE_DURATION);
  GtkWidget *strip = g_object_ref_sink (mg_thread_strip_new (profile, view));
  int height;

  g_assert_cmpuint (mg_thread_strips_get_n_rows (mg_thread_strip_get_strips (MG_THREAD_STRIP (strip))),
                    ==, 40);
  g_assert_cmpuint (mg_thread_strip_get_n_shown (MG_THREAD_STRIP (strip)), ==,
                    MG_THREAD_STRIP_MAX_ROWS);
  gtk_widget_measure (strip, GTK_ORIENTATION_VERTICAL, 400, &height, NULL, NULL, NULL);
  g_assert_cmpint (height, ==,
                   MG_THREAD_STRIP_LEGEND_HEIGHT + MG_THREAD_STRIP_MAX_ROWS * MG_THREAD_STRIP_PITCH);
  g_assert_cmpint (mg_thread_strip_row_at (MG_THREAD_STRIP (strip), height - 2), ==,
                   MG_THREAD_STRIP_MAX_ROWS - 1);
  g_object_unref (strip);
}

/* WCAG's relative luminance and contrast ratio. */
static double
linear (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
luminance (const double rgb[3])
{
  return 0.2126 * linear (rgb[0]) + 0.7152 * linear (rgb[1]) + 0.0722 * linear (rgb[2]);
}

static double
contrast (const double a[3], const double b[3])
{
  double la = luminance (a), lb = luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

/* Every class, Off CPU included, keeps WCAG's 3:1 for graphics on both
 * themes' backgrounds and stays apart from the others. */
static void
test_palette (void)
{
  for (guint k = 0; k < MG_THREAD_N_CLASSES; k++)
    {
      double rgb[3];

      mg_thread_strip_class_colour (k, rgb);
      for (int dark = 0; dark <= 1; dark++)
        {
          MgRgba bg = mg_graph_render_background (dark);
          double bg_rgb[3] = { bg.r, bg.g, bg.b };
          double ratio = contrast (rgb, bg_rgb);

          g_test_message ("%s on %s: %.2f:1", mg_thread_class_name (k), dark ? "dark" : "light",
                          ratio);
          g_assert_cmpfloat (ratio, >=, 3.0);
        }
      for (guint j = 0; j < k; j++)
        {
          double other[3];

          mg_thread_strip_class_colour (j, other);
          g_assert_cmpfloat (fabs (rgb[0] - other[0]) + fabs (rgb[1] - other[1])
                               + fabs (rgb[2] - other[2]),
                             >, 0.3);
        }
    }
}

int
main (int argc, char **argv)
{
  if (!graph_test_init (&argc, &argv, "cairo"))
    return g_test_run ();
  g_test_add_func ("/thread-strip/palette", test_palette);
  g_test_add_func ("/thread-strip/many-threads", test_many_threads);
  g_test_add ("/thread-strip/pixels-light", Fixture, GINT_TO_POINTER (FALSE), fixture_setup,
              test_pixels, fixture_teardown);
  g_test_add ("/thread-strip/pixels-dark", Fixture, GINT_TO_POINTER (TRUE), fixture_setup,
              test_pixels, fixture_teardown);
  g_test_add ("/thread-strip/describe", Fixture, NULL, fixture_setup, test_describe,
              fixture_teardown);
  g_test_add ("/thread-strip/click", Fixture, NULL, fixture_setup, test_click, fixture_teardown);
  g_test_add ("/thread-strip/keys", Fixture, NULL, fixture_setup, test_keys, fixture_teardown);
  g_test_add ("/thread-strip/process", Fixture, NULL, fixture_setup, test_process,
              fixture_teardown);
  return g_test_run ();
}
