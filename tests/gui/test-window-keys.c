/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer driven by real input: key presses and the scroll wheel sent
 * through the X server (XTest), so the window's shortcuts, the focus and
 * the graphs' own keys act as they do for a user. On a display of the
 * test's own (Xvfb -displayfd), so the pointer and keyboard of the display
 * other tests share are left alone. */
#include "mg-config.h"

#include <math.h>
#include <string.h>
#include <gtk/gtk.h>
#include <gdk/x11/gdkx.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

#include "code-fixture.h"
#include "gui-fixtures.h"
#include "gui-test-util.h"
#include "gui/graph/mg-metric-graph.h"
#include "gui/mg-code-view-private.h"
#include "gui/mg-flame-view.h"
#include "gui/mg-rank-overview.h"
#include "gui/mg-window-private.h"

typedef struct {
  GuiTestDisplay *display;
  Display *xdisplay;
  MgWindow *window;
  MgTimeView *view;
} Input;

/* Until GTK has handled every event the X server has sent so far: a fixed
 * pause left key presses unhandled on a loaded machine. */
static void
settle (Input *in)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  do
    {
      XSync (in->xdisplay, False);
      while (g_main_context_pending (NULL) && g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, FALSE);
    }
  while (XPending (in->xdisplay) > 0 && g_get_monotonic_time () < deadline);
  mg_test_spin (20);
}

/* keysym with the modifiers held (GDK_SHIFT_MASK, GDK_CONTROL_MASK). */
static void
send_key (Input *in, KeySym keysym, GdkModifierType modifiers)
{
  KeyCode shift = XKeysymToKeycode (in->xdisplay, XK_Shift_L);
  KeyCode control = XKeysymToKeycode (in->xdisplay, XK_Control_L);
  KeyCode key = XKeysymToKeycode (in->xdisplay, keysym);

  g_assert_cmpuint (key, !=, 0);
  if (modifiers & GDK_SHIFT_MASK)
    XTestFakeKeyEvent (in->xdisplay, shift, True, CurrentTime);
  if (modifiers & GDK_CONTROL_MASK)
    XTestFakeKeyEvent (in->xdisplay, control, True, CurrentTime);
  XTestFakeKeyEvent (in->xdisplay, key, True, CurrentTime);
  XTestFakeKeyEvent (in->xdisplay, key, False, CurrentTime);
  if (modifiers & GDK_CONTROL_MASK)
    XTestFakeKeyEvent (in->xdisplay, control, False, CurrentTime);
  if (modifiers & GDK_SHIFT_MASK)
    XTestFakeKeyEvent (in->xdisplay, shift, False, CurrentTime);
  settle (in);
}

static void
send_keys (Input *in, guint n, KeySym keysym, GdkModifierType modifiers)
{
  for (guint i = 0; i < n; i++)
    send_key (in, keysym, modifiers);
}

/* The pointer onto widget at fractions (fx, fy) of its size. */
static void
point_at (Input *in, GtkWidget *widget, double fx, double fy)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (in->window));
  graphene_rect_t bounds;
  double sx, sy;
  int rx, ry;
  Window child;

  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (in->window), &bounds));
  gtk_native_get_surface_transform (GTK_NATIVE (in->window), &sx, &sy);
  XTranslateCoordinates (in->xdisplay, gdk_x11_surface_get_xid (surface),
                         DefaultRootWindow (in->xdisplay),
                         (int) (sx + bounds.origin.x + fx * bounds.size.width),
                         (int) (sy + bounds.origin.y + fy * bounds.size.height), &rx, &ry, &child);
  XTestFakeMotionEvent (in->xdisplay, -1, rx, ry, CurrentTime);
  settle (in);
}

/* One wheel step up (button 4), with the modifiers held. */
static void
scroll_up (Input *in, GdkModifierType modifiers)
{
  KeyCode shift = XKeysymToKeycode (in->xdisplay, XK_Shift_L);
  KeyCode control = XKeysymToKeycode (in->xdisplay, XK_Control_L);

  if (modifiers & GDK_SHIFT_MASK)
    XTestFakeKeyEvent (in->xdisplay, shift, True, CurrentTime);
  if (modifiers & GDK_CONTROL_MASK)
    XTestFakeKeyEvent (in->xdisplay, control, True, CurrentTime);
  XTestFakeButtonEvent (in->xdisplay, 4, True, CurrentTime);
  XTestFakeButtonEvent (in->xdisplay, 4, False, CurrentTime);
  if (modifiers & GDK_CONTROL_MASK)
    XTestFakeKeyEvent (in->xdisplay, control, False, CurrentTime);
  if (modifiers & GDK_SHIFT_MASK)
    XTestFakeKeyEvent (in->xdisplay, shift, False, CurrentTime);
  settle (in);
}

static void
input_open (Input *in, MgProfile *profile)
{
  gint64 deadline;

  in->display = gui_test_display_new (FALSE);
  /* Xvfb runs the suite (xvfb-run): a display of our own must come up. */
  if (in->display == NULL)
    g_error ("could not start a display of the test's own (Xvfb -displayfd)");
  in->xdisplay = gdk_x11_display_get_xdisplay (in->display->display);
  gui_test_reset_settings ();
  in->window = mg_window_new (gui_test_app);
  gtk_window_set_display (GTK_WINDOW (in->window), in->display->display);
  gtk_window_set_default_size (GTK_WINDOW (in->window), 1000, 700);
  mg_window_set_profile (in->window, profile, NULL);
  in->view = mg_window_get_time_view (in->window);
  gtk_window_present (GTK_WINDOW (in->window));
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (!gtk_widget_get_mapped (GTK_WIDGET (in->window)) && g_get_monotonic_time () < deadline)
    mg_test_spin (20);
  mg_test_spin (200);
  /* The pointer on the header bar, off the graphs (whose line it would
   * move), so the window has the keyboard whatever the focus mode. */
  point_at (in, gtk_window_get_titlebar (GTK_WINDOW (in->window)), 0.5, 0.5);
  while (!gtk_window_is_active (GTK_WINDOW (in->window)) && g_get_monotonic_time () < deadline)
    mg_test_spin (20);
  g_assert_true (gtk_window_is_active (GTK_WINDOW (in->window)));
}

static void
input_close (Input *in)
{
  gtk_window_destroy (GTK_WINDOW (in->window));
  mg_test_spin (50);
  gui_test_display_free (in->display);
}

static void
assert_range (MgTimeView *view, double t0, double t1)
{
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_start (view), t0, 1e-9);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_end (view), t1, 1e-9);
}

static void
assert_selection (MgTimeView *view, double t0, double t1)
{
  g_assert_true (mg_time_view_get_has_selection (view));
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_selection_start (view), t0, 1e-9);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_selection_end (view), t1, 1e-9);
}

/* Selecting, zooming, panning and resetting with the keyboard alone. */
static void
test_keyboard (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_single ();
  g_autofree char *whole = NULL, *by_keys = NULL, *by_call = NULL;
  Input in = { 0 };
  GtkWidget *cpu;

  input_open (&in, profile);
  whole = mg_window_dup_row_figures (in.window, "rss");

  /* The first graph has the focus: the arrows move the time cursor (the
   * hover line) from the middle of the 1 s run, 10 ms a step. */
  cpu = mg_window_get_metric_graph (in.window, "cpu");
  g_assert_true (gtk_root_get_focus (GTK_ROOT (in.window)) == cpu);
  g_assert_cmpfloat (mg_time_view_get_hover_time (in.view), ==, -1);
  send_key (&in, XK_Right, 0);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_hover_time (in.view), 0.51, 1e-9);

  /* Shift+Right selects from there; every row's figures describe it (rss
   * rises 1 MiB a window: they are those of 0.51–0.60 s). */
  send_keys (&in, 9, XK_Right, GDK_SHIFT_MASK);
  assert_selection (in.view, 0.51, 0.60);
  by_keys = mg_window_dup_row_figures (in.window, "rss");
  g_assert_cmpstr (by_keys, !=, whole);
  g_assert_cmpstr (by_keys, ==, "Max 159 MiB · Mean 155 MiB · Min 151 MiB");
  gui_test_save_screenshot (in.window, "keyboard-selection.png");

  /* The window's shortcuts, from a focused graph: Ctrl+Return zooms into
   * the selection, Ctrl+− steps back, Ctrl+= zooms in, Ctrl+→ / Ctrl+←
   * pan a quarter, Ctrl+0 resets. */
  send_key (&in, XK_Return, GDK_CONTROL_MASK);
  assert_range (in.view, 0.51, 0.60);
  send_key (&in, XK_minus, GDK_CONTROL_MASK);
  assert_range (in.view, 0, 1);
  send_key (&in, XK_equal, GDK_CONTROL_MASK);
  assert_range (in.view, 0.25, 0.75);
  send_key (&in, XK_Right, GDK_CONTROL_MASK);
  assert_range (in.view, 0.375, 0.875);
  send_key (&in, XK_Left, GDK_CONTROL_MASK);
  send_key (&in, XK_Left, GDK_CONTROL_MASK);
  assert_range (in.view, 0.125, 0.625);
  /* The selection still there: its figures unchanged by zoom and pan. */
  assert_selection (in.view, 0.51, 0.60);
  mg_time_view_clear_selection (in.view);
  mg_time_view_set_selection (in.view, 0.51, 0.60);
  by_call = mg_window_dup_row_figures (in.window, "rss");
  g_assert_cmpstr (by_keys, ==, by_call);

  /* Shift+Home extends it from its anchor (its other end) back to the
   * start of the run, the view following; Escape clears it. */
  send_key (&in, XK_Home, GDK_SHIFT_MASK);
  assert_selection (in.view, 0, 0.51);
  g_assert_cmpfloat (mg_time_view_get_start (in.view), ==, 0);
  send_key (&in, XK_Escape, 0);
  g_assert_false (mg_time_view_get_has_selection (in.view));
  send_key (&in, XK_0, GDK_CONTROL_MASK);
  assert_range (in.view, 0, 1);

  /* Ctrl+Shift+V: the vertical auto-zoom toggle. */
  g_assert_true (mg_time_view_get_auto_zoom_vertical (in.view));
  send_key (&in, XK_v, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  g_assert_false (mg_time_view_get_auto_zoom_vertical (in.view));
  send_key (&in, XK_v, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  g_assert_true (mg_time_view_get_auto_zoom_vertical (in.view));

  /* Tab reaches the next row's graph; the cursor is shared. */
  send_key (&in, XK_End, 0);
  g_assert_cmpfloat (mg_time_view_get_hover_time (in.view), ==, 1);
  /* (The Memory group's header comes between the two graphs.) */
  for (guint i = 0; i < 4 && gtk_root_get_focus (GTK_ROOT (in.window))
                                 != mg_window_get_metric_graph (in.window, "rss"); i++)
    send_key (&in, XK_Tab, 0);
  g_assert_true (gtk_root_get_focus (GTK_ROOT (in.window))
                 == mg_window_get_metric_graph (in.window, "rss"));
  send_key (&in, XK_Left, GDK_SHIFT_MASK);
  assert_selection (in.view, 0.99, 1);
  gui_test_save_screenshot (in.window, "keyboard-cursor.png");
  input_close (&in);
}

/* The wheel: Ctrl zooms around the pointer, Shift pans, plain scrolling is
 * the list's. */
static void
test_scroll (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_single ();
  Input in = { 0 };
  GtkWidget *graph;
  double t, t0, t1;

  input_open (&in, profile);
  graph = mg_window_get_metric_graph (in.window, "rss");
  point_at (&in, graph, 0.25, 0.5);
  t = mg_time_view_get_hover_time (in.view);
  g_assert_cmpfloat (fabs (t - 0.25), <, 0.01);

  scroll_up (&in, GDK_CONTROL_MASK);
  t0 = mg_time_view_get_start (in.view);
  t1 = mg_time_view_get_end (in.view);
  g_assert_cmpfloat_with_epsilon (t1 - t0, 0.8, 1e-6);
  /* The time under the pointer stays under it. */
  g_assert_cmpfloat_with_epsilon ((t - t0) / (t1 - t0), t, 1e-6);

  /* Shift+wheel up pans back by a tenth of the view (to the start here). */
  scroll_up (&in, GDK_SHIFT_MASK);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_start (in.view), MAX (0, t0 - 0.08), 1e-6);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_end (in.view) - mg_time_view_get_start (in.view),
                                  0.8, 1e-6);
  /* Plain wheel: the rows scroll, the view stays. */
  t0 = mg_time_view_get_start (in.view);
  scroll_up (&in, 0);
  g_assert_cmpfloat (mg_time_view_get_start (in.view), ==, t0);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_end (in.view) - t0, 0.8, 1e-6);
  input_close (&in);
}

/* The row's context menu closed with Escape leaves the rows where they
 * were (it scrolled them to the bottom: thirty rows, the first's menu). */
static void
test_context_menu_keeps_scroll (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_large (4, 30, 50);
  Input in = { 0 };
  GtkWidget *graph, *scrolled, *menu;
  GtkAdjustment *vadjustment;
  KeyCode escape;

  input_open (&in, profile);
  graph = mg_window_get_metric_graph (in.window, "metric0");
  g_assert_nonnull (graph);
  scrolled = gtk_widget_get_ancestor (graph, GTK_TYPE_SCROLLED_WINDOW);
  vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment) - gtk_adjustment_get_page_size (vadjustment), >, 1000);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);
  point_at (&in, graph, 0.5, 0.5);
  XTestFakeButtonEvent (in.xdisplay, 3, True, CurrentTime);
  XTestFakeButtonEvent (in.xdisplay, 3, False, CurrentTime);
  settle (&in);
  mg_test_spin (300);
  /* The menu is open (it was the row's child, now the graph's). */
  menu = gui_test_find_widget (gtk_widget_get_parent (graph), GTK_TYPE_POPOVER_MENU);
  g_assert_nonnull (menu);
  g_assert_true (gtk_widget_get_mapped (menu));
  escape = XKeysymToKeycode (in.xdisplay, XK_Escape);
  XTestFakeKeyEvent (in.xdisplay, escape, True, CurrentTime);
  XTestFakeKeyEvent (in.xdisplay, escape, False, CurrentTime);
  settle (&in);
  mg_test_spin (300);
  {
    GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (in.window));
    g_test_message ("rows at %.0f of %.0f px; focus %s %p", gtk_adjustment_get_value (vadjustment),
                    gtk_adjustment_get_upper (vadjustment),
                    focus ? G_OBJECT_TYPE_NAME (focus) : "none", (void *) focus);
  }
  g_assert_false (gtk_widget_get_mapped (menu));
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);
  /* The keyboard is back on the graph the menu was opened on. */
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (in.window)) == graph);

  /* From the keyboard: Shift+F10 on the focused graph opens the same
   * menu (it could not be reached without a mouse), Down and Enter its
   * Rank Overview, of this graph's metric. */
  g_assert_null (mg_window_get_rank_overview (in.window));
  send_key (&in, XK_F10, GDK_SHIFT_MASK);
  mg_test_spin (200);
  g_assert_true (gtk_widget_get_mapped (menu));
  send_key (&in, XK_Down, 0);
  send_key (&in, XK_Return, 0);
  mg_test_spin (300);
  g_assert_nonnull (mg_window_get_rank_overview (in.window));
  g_assert_cmpstr (mg_rank_overview_get_metric_id (MG_RANK_OVERVIEW (
                     mg_window_get_rank_overview (in.window))), ==, "metric0");
  /* The overview's window closed first, and GTK's timers that the menu
   * and the pointer started run out, before the display closes: closed
   * with them pending, GTK 4.8's own handler of the display's end removed
   * a source that was gone (a CRITICAL, seen under ASan). */
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (mg_window_get_rank_overview (in.window))));
  XTestFakeMotionEvent (in.xdisplay, -1, 0, 0, CurrentTime);
  settle (&in);
  mg_test_spin (1000);
  input_close (&in);
}

/* Hiding the metric whose graph holds the keyboard hands it to the next
 * row's graph, and the rows stay where they were (GTK gave it to the
 * group's expander: the rows went 2264 px down); the last row's graph
 * hands it to the row before. */
static void
test_hide_keeps_scroll (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_large (4, 30, 50);
  Input in = { 0 };
  GtkWidget *graph, *scrolled;
  GtkAdjustment *vadjustment;

  input_open (&in, profile);
  graph = mg_window_get_metric_graph (in.window, "metric0");
  scrolled = gtk_widget_get_ancestor (graph, GTK_TYPE_SCROLLED_WINDOW);
  vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  g_assert_true (gtk_widget_grab_focus (graph));
  settle (&in);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);
  g_action_group_activate_action (G_ACTION_GROUP (in.window), "hide-metric",
                                  g_variant_new_string ("metric0"));
  settle (&in);
  mg_test_spin (200);
  {
    g_auto (GStrv) shown = mg_window_get_visible_metric_ids (in.window);

    g_assert_false (g_strv_contains ((const char *const *) shown, "metric0"));
    g_assert_true (g_strv_contains ((const char *const *) shown, "metric1"));
  }
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (in.window))
                 == mg_window_get_metric_graph (in.window, "metric1"));
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);

  /* The last row: to the one before it. */
  graph = mg_window_get_metric_graph (in.window, "metric29");
  g_assert_true (gtk_widget_grab_focus (graph));
  settle (&in);
  g_action_group_activate_action (G_ACTION_GROUP (in.window), "hide-metric",
                                  g_variant_new_string ("metric29"));
  settle (&in);
  mg_test_spin (200);
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (in.window))
                 == mg_window_get_metric_graph (in.window, "metric28"));
  input_close (&in);
}

static const char *
flame_box_name (MgCodeView *code)
{
  MgFlameView *flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (code));
  const MgCallFunction *f = mg_call_tree_get_node (mg_code_tree_get (mg_code_view_get_tree (code)),
                                                   MG_CALL_TREE_TOP_DOWN,
                                                   mg_flame_view_get_selected (flame), NULL, NULL);
  return f ? f->name : "All";
}

/* The Code pane's keys pressed for real: the flame graph box by box,
 * zoomed in and out; a call tree row closed and opened. */
static void
test_code_keys (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  Input in = { 0 };
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  input_open (&in, profile);
  MgCodeView *code = MG_CODE_VIEW (mg_window_get_code_view (in.window));
  while (mg_code_view_is_busy (code) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (mg_code_view_is_busy (code));

  /* Ctrl+F from a graph: straight into the Code pane's search, and the
   * letters typed go there (Tab passed every graph and four buttons). */
  GtkWidget *search = mg_code_view_get_search_entry (code);
  g_assert_true (gtk_widget_grab_focus (mg_window_get_metric_graph (in.window, "work")));
  settle (&in);
  g_assert_false (gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (in.window)), search));
  send_key (&in, XK_f, GDK_CONTROL_MASK);
  g_assert_true (gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (in.window)), search));
  send_key (&in, XK_b, 0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (search)), ==, "b");
  gtk_editable_set_text (GTK_EDITABLE (search), "");
  settle (&in);

  mg_code_view_show_page (code, "flame");
  mg_test_spin (100);
  MgFlameView *flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (code));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (flame)));
  settle (&in);
  send_keys (&in, 3, XK_Down, 0);  /* the top box, main, a */
  g_assert_cmpstr (flame_box_name (code), ==, "code_fixture_a");
  send_key (&in, XK_Right, 0);
  g_assert_cmpstr (flame_box_name (code), ==, "code_fixture_b");
  g_assert_cmpstr (mg_code_view_get_selected_function (code), ==, "code_fixture_b");
  send_key (&in, XK_Return, 0);
  g_assert_cmpuint (mg_flame_view_get_focus (flame), ==, mg_flame_view_get_selected (flame));
  send_key (&in, XK_Escape, 0);
  g_assert_cmpuint (mg_flame_view_get_focus (flame), !=, mg_flame_view_get_selected (flame));
  /* With a time selection, Escape clears it first, then zooms out. */
  mg_time_view_set_selection (in.view, 0.1, 0.9);
  code = MG_CODE_VIEW (mg_window_get_code_view (in.window));
  while (mg_code_view_is_busy (code) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (flame));
  send_keys (&in, 3, XK_Down, 0);
  send_key (&in, XK_Return, 0);
  g_assert_cmpuint (mg_flame_view_get_focus (flame), !=, 0);
  send_key (&in, XK_Escape, 0);
  g_assert_false (mg_time_view_get_has_selection (in.view));
  while (mg_code_view_is_busy (code) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  /* The new range's tree: shown whole; Escape has nothing to zoom out of. */
  g_assert_cmpuint (mg_flame_view_get_focus (flame), ==, 0);
  send_keys (&in, 3, XK_Down, 0);
  send_key (&in, XK_Return, 0);
  g_assert_cmpuint (mg_flame_view_get_focus (flame), !=, 0);
  send_key (&in, XK_Escape, 0);
  send_key (&in, XK_Escape, 0);
  g_assert_cmpuint (mg_flame_view_get_focus (flame), ==, 0);

  /* The call tree: main, a (open), c, b, c; Left on a closes it. */
  mg_code_view_show_page (code, "tree");
  mg_test_spin (100);
  GtkWidget *tree = mg_code_view_get_tree_view (code);
  GListModel *rows = mg_code_view_get_tree_model (code);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 5);
  gtk_single_selection_set_selected (
    GTK_SINGLE_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (tree))), 1);
  g_assert_true (gtk_widget_grab_focus (tree));
  settle (&in);
  send_key (&in, XK_Left, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 4);
  send_key (&in, XK_Right, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 5);
  input_close (&in);
}

/* The accelerators the shortcuts window shows, parsed. */
typedef struct {
  guint key;
  GdkModifierType mods;
} Accel;

static void
collect_shortcuts (GObject *object, GArray *accels)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (object))
    {
      g_autofree char *text = NULL;
      g_auto (GStrv) parts = NULL;

      g_object_get (object, "accelerator", &text, NULL);
      parts = g_strsplit (text, " ", -1);
      for (guint i = 0; parts[i] != NULL; i++)
        {
          Accel accel;

          g_assert_true (gtk_accelerator_parse (parts[i], &accel.key, &accel.mods));
          g_array_append_val (accels, accel);
        }
    }
  if (GTK_IS_WIDGET (object))
    for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (object)); child != NULL;
         child = gtk_widget_get_next_sibling (child))
      collect_shortcuts (G_OBJECT (child), accels);
}

static gboolean
lists (GArray *accels, const char *accelerator)
{
  guint key;
  GdkModifierType mods;

  g_assert_true (gtk_accelerator_parse (accelerator, &key, &mods));
  for (guint i = 0; i < accels->len; i++)
    if (g_array_index (accels, Accel, i).key == key && g_array_index (accels, Accel, i).mods == mods)
      return TRUE;
  return FALSE;
}

/* The shortcuts window (Ctrl+?) lists every accelerator the application
 * sets (one per action at least) and the graphs' own keys. */
static void
test_shortcuts_window (void)
{
  MgWindow *window = gui_test_new_window (NULL);
  GtkShortcutsWindow *overlay;
  g_autoptr (GArray) accels = g_array_new (FALSE, FALSE, sizeof (Accel));
  g_auto (GStrv) actions = gtk_application_list_action_descriptions (gui_test_app);
  const char *graph_keys[] = { "Left", "Right", "<Shift>Left", "<Shift>Right", "Home", "End",
                               "<Shift>Home", "<Shift>End", "plus", "minus", "Escape",
                               "<Shift>F10", "Menu" };

  /* Built when first asked for (Ctrl+?), for this window. */
  g_assert_null (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (overlay);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (overlay)) == GTK_WINDOW (window));
  /* Shown, it lays its columns out without a warning (fatal here). */
  mg_test_spin (300);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  collect_shortcuts (G_OBJECT (overlay), accels);
  g_assert_cmpuint (g_strv_length (actions), >=, 15);
  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto (GStrv) set = gtk_application_get_accels_for_action (gui_test_app, actions[i]);
      gboolean listed = FALSE;

      for (guint j = 0; set[j] != NULL; j++)
        listed |= lists (accels, set[j]);
      if (!listed)
        g_error ("the shortcuts window lacks %s (%s)", set[0], actions[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (graph_keys); i++)
    if (!lists (accels, graph_keys[i]))
      g_error ("the shortcuts window lacks the graphs' %s", graph_keys[i]);
  /* Closed, it is hidden and shown again as it was. */
  gtk_window_close (GTK_WINDOW (overlay));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  g_assert_true (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window))
                 == overlay);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/keys/keyboard", test_keyboard);
  g_test_add_func ("/gui/keys/scroll", test_scroll);
  g_test_add_func ("/gui/keys/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/gui/keys/code-views", test_code_keys);
  g_test_add_func ("/gui/keys/context-menu-keeps-scroll", test_context_menu_keeps_scroll);
  g_test_add_func ("/gui/keys/hide-keeps-scroll", test_hide_keeps_scroll);
  return gui_test_run ();
}
