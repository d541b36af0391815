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

/* No display could be opened: one line that says which and what to do.
 * GTK's set-up failed, and going on crashed in the first call that
 * needs a display (SIGSEGV after two GTK criticals, over ssh without -X). */
static int
no_display (void)
{
  const char *x11 = g_getenv ("DISPLAY");
  const char *wayland = g_getenv ("WAYLAND_DISPLAY");
  g_autofree char *which = NULL;

  if ((x11 == NULL || *x11 == '\0') && (wayland == NULL || *wayland == '\0'))
    which = g_strdup (_("neither DISPLAY nor WAYLAND_DISPLAY is set"));
  else
    /* Translators: %s is a display's name, e.g. ":0" or "wayland-0" */
    which = g_strdup_printf (_("cannot connect to “%s”"),
                             wayland != NULL && *wayland != '\0' ? wayland : x11);
  g_printerr (_("metrograph: cannot open the viewer: %s (run it on a desktop, through ssh -X, or "
                "under xvfb-run; without a display, metrograph --report and --export read "
                "profiles: see --help)\n"),
              which);
  return 1;
}

int
mg_gui_run (int argc, char **argv)
{
  g_autoptr (MgApplication) app = NULL;
  const char *renderer = NULL, *why = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, MG_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* First, while this is the only thread: GL or cairo (mg-renderer-choice.h). */
  if (!mg_renderer_init_gtk (&renderer, &why))
    return no_display ();
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
