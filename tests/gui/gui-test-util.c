/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared helpers of the viewer's window tests. */
#include "mg-config.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <glib-unix.h>

#include "gui-test-util.h"
#include "gui/mg-application.h"
#include "gui/mg-tooltip.h"
#include "mg-resources.h"
#include "mg-test-common.h"
#include "gui/mg-tooltip.h"

GtkApplication *gui_test_app;
static char *scratch_home;

void
gui_test_init (int *argc, char ***argv)
{
  const char *xdg_vars[] = { "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
                             "XDG_STATE_HOME" };
  g_autoptr (GError) error = NULL;

  /* Compiled schema in the build tree, memory backend, a software renderer
   * (Xvfb has no GL), no real desktop settings, and the accessibility
   * backend that keeps what widgets tell screen readers for tests to read. */
  g_setenv ("GSETTINGS_SCHEMA_DIR", MG_GUI_SCHEMA_DIR, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  g_setenv ("GTK_A11Y", "test", TRUE);
  /* Recent files and caches go to a scratch home; XDG_DATA_DIRS stays, for
   * the MIME database that image loading needs. */
  scratch_home = g_dir_make_tmp ("mg-gui-home-XXXXXX", NULL);
  g_setenv ("HOME", scratch_home, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (xdg_vars); i++)
    {
      g_autofree char *dir = g_build_filename (scratch_home, xdg_vars[i], NULL);

      g_setenv (xdg_vars[i], dir, TRUE);
    }
  /* Run folders too: the start page lists the interrupted runs it finds
   * where run folders go, and the machine's own are not the test's. */
  g_setenv ("METROGRAPH_TMPDIR", scratch_home, TRUE);
  g_test_init (argc, argv, NULL);
  gtk_init ();

  gui_test_app = GTK_APPLICATION (mg_application_new ());
  g_application_set_flags (G_APPLICATION (gui_test_app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (gui_test_app), NULL, &error));
  g_assert_no_error (error);
  /* Pulls the resources (registered by a constructor) out of the static library. */
  g_assert_nonnull (mg_resources_get_resource ());
}


int
gui_test_run (void)
{
  int status = g_test_run ();

  g_clear_object (&gui_test_app);
  mg_test_remove_tree (scratch_home);
  g_clear_pointer (&scratch_home, g_free);
  return status;
}

MgWindow *
gui_test_new_window (MgProfile *profile)
{
  MgWindow *window = mg_window_new (gui_test_app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  if (profile != NULL)
    mg_window_set_profile (window, profile, NULL);
  gtk_window_present (GTK_WINDOW (window));
  mg_test_spin (100);
  return window;
}

void
gui_test_wait_loaded (MgWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (mg_window_get_loading (window) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (mg_window_get_loading (window));
}

GtkWidget *
gui_test_side_panel (MgWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  GtkWidget *revealer = gtk_widget_get_ancestor (
    gui_test_find_widget (GTK_WIDGET (window), GTK_TYPE_STACK_SWITCHER), GTK_TYPE_REVEALER);

  g_assert_nonnull (revealer);
  while (!gtk_revealer_get_child_revealed (GTK_REVEALER (revealer))
         && g_get_monotonic_time () < deadline)
    mg_test_spin (20);
  g_assert_true (gtk_revealer_get_child_revealed (GTK_REVEALER (revealer)));
  mg_test_spin (50);
  return revealer;
}

void
gui_test_activate (MgWindow *window, const char *action, GVariant *parameter)
{
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, parameter);
}

void
gui_test_reset_settings (void)
{
  g_autoptr (GSettings) settings = g_settings_new (MG_APP_ID);

  /* Both kinds of run: MPI runs' keys have the prefix "mpi-". */
  const char *const keys[] = {
    "preset", "hidden-groups", "hidden-metrics", "mpi-preset", "mpi-hidden-groups",
    "mpi-hidden-metrics",
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
}

void
gui_test_assert_strv (char **got, const char *const *expected)
{
  g_autofree char *got_text = g_strjoinv (",", got);
  g_autofree char *expected_text = g_strjoinv (",", (char **) expected);

  g_assert_cmpstr (got_text, ==, expected_text);
  g_strfreev (got);
}

GtkWidget *
gui_test_find_widget (GtkWidget *root, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = gui_test_find_widget (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
gui_test_find_label (GtkWidget *root, const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = gui_test_find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GdkTexture *
gui_test_render (GtkWidget *widget)
{
  GdkPaintable *paintable;
  GtkSnapshot *snapshot;
  int width, height;
  GskRenderNode *node;
  GdkTexture *texture;
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  /* Drawn at all only once laid out: a widget made or resized by the
   * last action (rows rebuilt by a preset) is allocated at the next frame,
   * later on a loaded machine. */
  for (;;)
    {
      width = gtk_widget_get_width (widget);
      height = gtk_widget_get_height (widget);
      paintable = gtk_widget_paintable_new (widget);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node != NULL || g_get_monotonic_time () > deadline)
        break;
      g_object_unref (paintable);
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  g_object_unref (paintable);
  return texture;
}

guint
gui_test_count_colour (GdkTexture *texture, const graphene_rect_t *rect, guint8 r, guint8 g,
                       guint8 b, int tolerance)
{
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  g_autofree guint8 *data = g_malloc ((gsize) width * height * 4);
  guint count = 0;

  gdk_texture_download (texture, data, (gsize) width * 4);
  for (int y = MAX (0, (int) rect->origin.y);
       y < (int) (rect->origin.y + rect->size.height) && y < height; y++)
    for (int x = MAX (0, (int) rect->origin.x);
         x < (int) (rect->origin.x + rect->size.width) && x < width; x++)
      {
        /* Cairo-format ARGB32, little endian: B G R A. */
        const guint8 *px = data + ((gsize) y * width + x) * 4;

        if (abs (px[2] - r) <= tolerance && abs (px[1] - g) <= tolerance &&
            abs (px[0] - b) <= tolerance)
          count++;
      }
  return count;
}

static gboolean
is_icon_only_button (GtkWidget *widget)
{
  if (GTK_IS_MENU_BUTTON (widget))
    return gtk_menu_button_get_label (GTK_MENU_BUTTON (widget)) == NULL
           && gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (widget)) != NULL;
  /* A menu button's own toggle is named through the menu button; a spin
   * button's steps are GTK's own, out of the focus chain (Up / Down). */
  return GTK_IS_BUTTON (widget) && GTK_IS_IMAGE (gtk_button_get_child (GTK_BUTTON (widget)))
         && !GTK_IS_MENU_BUTTON (gtk_widget_get_parent (widget))
         && !GTK_IS_SPIN_BUTTON (gtk_widget_get_parent (widget));
}

guint
gui_test_assert_icon_buttons_named (GtkWidget *root)
{
  guint count = 0;

  if (is_icon_only_button (root))
    {
      if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (root), GTK_ACCESSIBLE_PROPERTY_LABEL))
        g_error ("%s in %s in %s (%s, tooltip \"%s\") has no accessible name",
                 G_OBJECT_TYPE_NAME (root), G_OBJECT_TYPE_NAME (gtk_widget_get_parent (root)),
                 G_OBJECT_TYPE_NAME (gtk_widget_get_parent (gtk_widget_get_parent (root))),
                 GTK_IS_ACTIONABLE (root) && gtk_actionable_get_action_name (GTK_ACTIONABLE (root))
                   ? gtk_actionable_get_action_name (GTK_ACTIONABLE (root)) : "no action",
                 gtk_widget_get_tooltip_text (root) != NULL ? gtk_widget_get_tooltip_text (root)
                 : mg_tooltip_get_text (root) != NULL       ? mg_tooltip_get_text (root)
                                                            : "none");
      count++;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    count += gui_test_assert_icon_buttons_named (child);
  return count;
}

void
gui_test_save_screenshot (MgWindow *window, const char *name)
{
  const char *dir = g_getenv ("MG_GUI_SCREENSHOT_DIR");
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  mg_test_spin (300);
  texture = gui_test_render (GTK_WIDGET (window));
  path = g_build_filename (dir, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

/* The servers started, ended should the test abort (a failed assertion)
 * before gui_test_display_free: one left behind would hold the display
 * and live on. */
static volatile pid_t servers[4];

static void
end_servers (int signal_number)
{
  for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
    if (servers[i] > 0)
      kill (servers[i], SIGTERM);
  signal (signal_number, SIG_DFL);
  raise (signal_number);
}

static void
track_server (GSubprocess *process, gboolean tracked)
{
  const char *id = process != NULL ? g_subprocess_get_identifier (process) : NULL;
  pid_t pid = id != NULL ? (pid_t) atoi (id) : 0;

  for (guint i = 0; pid > 0 && i < G_N_ELEMENTS (servers); i++)
    if (tracked ? servers[i] == 0 : servers[i] == pid)
      {
        servers[i] = tracked ? pid : 0;
        break;
      }
  signal (SIGABRT, end_servers);
  signal (SIGSEGV, end_servers);
}

/* An Xvfb on a display of its choosing (-displayfd: it writes the number
 * once it listens); its name, or NULL. */
static char *
start_xvfb (const char *xvfb, GSubprocess **process)
{
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  char number[16] = { 0 };
  int fds[2];
  ssize_t n;

  /* Close-on-exec: Xvfb gets only the write end, as its fd 9. */
  if (!g_unix_open_pipe (fds, FD_CLOEXEC, NULL))
    return NULL;
  /* Silent: a server left behind must not hold the runner's output open. */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE
                                        | G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_subprocess_launcher_take_fd (launcher, fds[1], 9);
  *process = g_subprocess_launcher_spawn (launcher, NULL, xvfb, "-displayfd", "9", "-screen", "0",
                                          "1280x1024x24", "-nolisten", "tcp", NULL);
  track_server (*process, TRUE);
  g_clear_object (&launcher);
  /* Up to the newline: Xvfb writes the number and the newline apart, and a
   * pipe closed between the two makes it fail ("Cannot write display
   * number to fd 9"). */
  n = 0;
  while (*process != NULL && n < (ssize_t) sizeof number - 1 && strchr (number, '\n') == NULL)
    {
      ssize_t got = read (fds[0], number + n, sizeof number - 1 - n);

      if (got <= 0)
        break;
      n += got;
    }
  close (fds[0]);
  return n > 0 ? g_strdup_printf (":%d", atoi (number)) : NULL;
}

static void
end_process (GSubprocess **process)
{
  if (*process == NULL)
    return;
  track_server (*process, FALSE);
  g_subprocess_send_signal (*process, SIGTERM);
  g_subprocess_wait (*process, NULL, NULL);
  g_clear_object (process);
}

static gboolean closing_display;

/* GTK 4.8's own handlers of a display's end may remove a timer of theirs
 * that has already gone: a GLib CRITICAL, "Source ID … was not found when
 * attempting to remove it", seen under ASan on a clean root after a test
 * whose menus, pointer and second window had started timers, in about
 * one run of ten however long the test waited first. The application
 * never closes a display; a test closes its own. Not fatal, and only that
 * message, only while a test's display closes. */
static gboolean
display_end_not_fatal (const char *domain, GLogLevelFlags level, const char *message,
                       gpointer data)
{
  return !(closing_display && g_strcmp0 (domain, "GLib") == 0 && (level & G_LOG_LEVEL_CRITICAL)
           && g_str_has_prefix (message, "Source ID ")
           && g_str_has_suffix (message, " was not found when attempting to remove it"));
}

void
gui_test_display_free (GuiTestDisplay *display)
{
  if (display->display != NULL)
    {
      g_test_log_set_fatal_handler (display_end_not_fatal, NULL);
      closing_display = TRUE;
      gdk_display_close (display->display);
      closing_display = FALSE;
    }
  /* Asked to end, they tidy up after themselves. */
  end_process (&display->wm);
  end_process (&display->xvfb);
  g_free (display->name);
  g_free (display);
}

GuiTestDisplay *
gui_test_display_new (gboolean with_wm)
{
  g_autofree char *xvfb = g_find_program_in_path ("Xvfb");
  g_autofree char *openbox = g_find_program_in_path ("openbox");
  GuiTestDisplay *display;

  if (xvfb == NULL || (with_wm && openbox == NULL))
    return NULL;
  display = g_new0 (GuiTestDisplay, 1);
  /* Servers other tests start at the same moment may race ours for a
   * display number, and one of them then goes: start another. */
  for (guint attempt = 0; attempt < 3 && display->display == NULL; attempt++)
    {
      g_clear_pointer (&display->name, g_free);
      end_process (&display->xvfb);
      display->name = start_xvfb (xvfb, &display->xvfb);
      for (guint i = 0; display->name != NULL && i < 30 && display->display == NULL; i++)
        {
          display->display = gdk_display_open (display->name);
          if (display->display == NULL)
            g_usleep (100000);
        }
      if (display->display == NULL)
        g_printerr ("# own display, attempt %u: %s\n", attempt + 1,
                    display->name == NULL ? "Xvfb -displayfd gave no display number"
                                          : "GDK could not open it in 3 s");
    }
  if (display->display != NULL && with_wm)
    {
      g_autoptr (GSubprocessLauncher) launcher =
        g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE
                                   | G_SUBPROCESS_FLAGS_STDOUT_SILENCE);

      g_subprocess_launcher_setenv (launcher, "DISPLAY", display->name, TRUE);
      display->wm = g_subprocess_launcher_spawn (launcher, NULL, openbox, "--sm-disable", NULL);
      track_server (display->wm, TRUE);
    }
  mg_test_spin (with_wm ? 500 : 50);
  if ((with_wm && display->wm == NULL) || display->display == NULL)
    {
      gui_test_display_free (display);
      return NULL;
    }
  return display;
}
