/* SPDX-License-Identifier: GPL-3.0-or-later */
/* metrograph: the command-line modes (no GTK involved, so they work without
 * a display), else the viewer, loaded then (libmetrograph-gui.so). */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "mg-cli.h"
#if MG_HAVE_GUI
#include <gmodule.h>

#include "session/mg-install-paths.h"

/* Loads the viewer module (beside the sources' build, or installed) and
 * runs it. */
static int
run_viewer (int argc, char **argv)
{
  g_autofree char *path = mg_install_paths_get_gui_module ();
  GModule *module = g_module_open (path, G_MODULE_BIND_LOCAL);
  int (*gui_run) (int argc, char **argv) = NULL;

  if (module == NULL || !g_module_symbol (module, "mg_gui_run", (gpointer *) &gui_run))
    {
      g_printerr (_("metrograph: cannot load the viewer: %s; reinstall metrograph, or use "
                    "--profile, --export or --list-metrics (see --help)\n"),
                  g_module_error ());
      return 1;
    }
  /* Kept loaded: GTK cannot be unloaded. */
  return gui_run (argc, argv);
}
#endif

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, MG_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (mg_cli_wanted (argc, argv))
    return mg_cli_run (argc, argv);
#if MG_HAVE_GUI
  return run_viewer (argc, argv);
#else
  /* Built without GTK (-Dgui=disabled), e.g. for cluster nodes. */
  g_printerr (_("metrograph: this build has no viewer (it was built with -Dgui=disabled): "
                "open profiles with a metrograph that has one, or use --profile, "
                "--export or --list-metrics (see --help)\n"));
  return 2;
#endif
}
