/* SPDX-License-Identifier: GPL-3.0-or-later */
/* GTK finds the accessibility bus when it creates the first widget, with a
 * blocking call (org.a11y.Bus.GetAddress) to the session bus. Where no
 * accessibility bus runs yet (a session without a desktop that starts one:
 * a plain window manager, a remote or nested X server), that call waits
 * while the bus starts it: about 100 ms of the window's start-up on the
 * development VM, a third of the 300 ms goal. Asked as soon as GTK is set
 * up (StartServiceByName, whose reply is not waited for), the bus comes up
 * while the application registers and the window is built; where it
 * already runs the request costs one message. */
#include "mg-config.h"

#include <gio/gio.h>

#include "mg-a11y-bus.h"

static void
on_started (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result,
                                                              NULL);
}

gboolean
mg_a11y_bus_prestart (void)
{
  const char *backend = g_getenv ("GTK_A11Y");
  const char *address = g_getenv ("AT_SPI_BUS_ADDRESS");
  g_autoptr (GDBusConnection) bus = NULL;

  if ((backend != NULL && *backend != '\0' && g_strcmp0 (backend, "atspi") != 0)
      || (address != NULL && *address != '\0'))
    return FALSE;
  /* The connection GApplication and GTK share afterwards: no extra cost. */
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  if (bus == NULL)
    return FALSE;
  /* Sent at once by GDBus's own thread; the reply comes to the main loop. */
  g_dbus_connection_call (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                          "org.freedesktop.DBus", "StartServiceByName",
                          g_variant_new ("(su)", "org.a11y.Bus", 0), G_VARIANT_TYPE ("(u)"),
                          G_DBUS_CALL_FLAGS_NONE, -1, NULL, on_started, NULL);
  return TRUE;
}
