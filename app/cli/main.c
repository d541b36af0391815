/* SPDX-License-Identifier: GPL-3.0-or-later */
/* metrograph: the command-line modes (no GTK involved, so they work without
 * a display), else the viewer. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "mg-cli.h"
#if MG_HAVE_GUI
#include "mg-gui.h"
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
  return mg_gui_run (argc, argv);
#else
  /* Built without GTK (-Dgui=disabled), e.g. for cluster nodes. */
  g_printerr (_("metrograph: this build has no viewer (it was built with -Dgui=disabled): "
                "open profiles with a metrograph that has one, or use --profile, "
                "--export or --list-metrics (see --help)\n"));
  return 2;
#endif
}
