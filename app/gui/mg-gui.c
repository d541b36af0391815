/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer's entry point. */
#include "mg-config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "mg-a11y-bus.h"
#include "mg-application.h"
#include "mg-renderer-choice.h"
#include "mg-resources.h"
#include "mg-gui.h"

int
mg_gui_run (int argc, char **argv)
{
  g_autoptr (MgApplication) app = NULL;
  const char *renderer = NULL, *why = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, MG_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* First, while this is the only thread: GL or cairo (mg-renderer-choice.h).
   * Without a display this fails quietly and GtkApplication reports it. */
  if (mg_renderer_init_gtk (&renderer, &why))
    g_debug ("renderer: %s (%s)", renderer != NULL ? renderer : "GTK's choice", why);
  /* Where no accessibility bus runs yet, it starts while the application
   * registers and the window is built, instead of holding up the first
   * widget (mg-a11y-bus.c). After GTK's set-up, which may change the
   * environment (no thread of ours may read it meanwhile). */
  mg_a11y_bus_prestart ();

  /* Pulls the resources (registered by a constructor) out of the static library. */
  g_return_val_if_fail (mg_resources_get_resource () != NULL, 1);
  g_set_application_name (_("Metrograph"));
  app = mg_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
