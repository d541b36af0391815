/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mg_a11y_bus_prestart: on a session bus of the test's own (GTestDBus)
 * whose accessibility bus is this program (--serve: it takes the name
 * org.a11y.Bus a while after it starts, as a real one takes its time), the
 * request starts it without waiting for it; not when GTK will not use it. */
#include "mg-config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "gui/mg-a11y-bus.h"

#define SERVE_DELAY_MS 1500

static char *marker_path;

/* ---- the accessibility bus stand-in (--serve MARKER) ---------------------- */

static const char *serve_marker;

static void
on_name_acquired (GDBusConnection *bus, const char *name, gpointer user_data)
{
  g_file_set_contents (serve_marker, "started\n", -1, NULL);
}

static void
on_name_lost (GDBusConnection *bus, const char *name, gpointer user_data)
{
  g_main_loop_quit (user_data);
}

static gboolean
on_timeout (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static int
serve (const char *marker)
{
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  guint owner;

  serve_marker = marker;
  g_file_set_contents (marker, "", -1, NULL);
  g_usleep (SERVE_DELAY_MS * 1000);
  /* The bus that started us (DBUS_STARTER_ADDRESS). */
  owner = g_bus_own_name (G_BUS_TYPE_STARTER, "org.a11y.Bus", G_BUS_NAME_OWNER_FLAGS_NONE, NULL,
                          on_name_acquired, on_name_lost, loop, NULL);
  /* Until the bus goes (the test's end), or a minute at most. */
  g_timeout_add_seconds (60, on_timeout, loop);
  g_main_loop_run (loop);
  g_bus_unown_name (owner);
  return 0;
}

/* ---- the test ------------------------------------------------------------ */

static void
test_prestart (void)
{
  g_autofree char *started = NULL;
  gint64 t0, waited;

  g_unsetenv ("GTK_A11Y");
  g_unsetenv ("AT_SPI_BUS_ADDRESS");
  t0 = g_get_monotonic_time ();
  g_assert_true (mg_a11y_bus_prestart ());
  waited = g_get_monotonic_time () - t0;
  /* It asked and came back before the stand-in even took the name. */
  g_assert_cmpint (waited, <, SERVE_DELAY_MS * 1000 / 2);
  while (!(g_file_get_contents (marker_path, &started, NULL, NULL) && g_str_equal (started, "started\n"))
         && g_get_monotonic_time () - t0 < 20 * G_USEC_PER_SEC)
    {
      g_clear_pointer (&started, g_free);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (20000);
    }
  g_assert_cmpstr (started, ==, "started\n");
  g_assert_cmpint (g_get_monotonic_time () - t0, >=, SERVE_DELAY_MS * 1000);
}

/* GTK will not look for the bus: no request. */
static void
test_not_needed (void)
{
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_assert_false (mg_a11y_bus_prestart ());
  g_setenv ("GTK_A11Y", "atspi", TRUE);
  g_setenv ("AT_SPI_BUS_ADDRESS", "unix:path=/nonexistent", TRUE);
  g_assert_false (mg_a11y_bus_prestart ());
  g_unsetenv ("GTK_A11Y");
  g_unsetenv ("AT_SPI_BUS_ADDRESS");
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = NULL;
  g_autofree char *self = NULL;
  g_autofree char *service = NULL;
  g_autofree char *service_path = NULL;
  g_autoptr (GTestDBus) bus = NULL;
  int status;

  if (argc == 3 && g_str_equal (argv[1], "--serve"))
    return serve (argv[2]);

  g_test_init (&argc, &argv, NULL);
  dir = g_dir_make_tmp ("mg-a11y-XXXXXX", NULL);
  marker_path = g_build_filename (dir, "started", NULL);
  self = g_canonicalize_filename (argv[0], NULL);
  service = g_strdup_printf ("[D-BUS Service]\nName=org.a11y.Bus\nExec=%s --serve %s\n", self,
                             marker_path);
  service_path = g_build_filename (dir, "org.a11y.Bus.service", NULL);
  g_assert_true (g_file_set_contents (service_path, service, -1, NULL));

  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_add_service_dir (bus, dir);
  g_test_dbus_up (bus);
  g_test_add_func ("/gui/a11y-bus/prestart", test_prestart);
  g_test_add_func ("/gui/a11y-bus/not-needed", test_not_needed);
  status = g_test_run ();
  g_test_dbus_down (bus);
  g_unlink (marker_path);
  g_unlink (service_path);
  g_rmdir (dir);
  g_free (marker_path);
  return status;
}
