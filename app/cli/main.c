/* metrograph: the command-line modes (no GTK involved, so they work without
 * a display), else the viewer. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "mg-cli.h"
#include "mg-gui.h"

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, MG_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (mg_cli_wanted (argc, argv))
    return mg_cli_run (argc, argv);
  return mg_gui_run (argc, argv);
}
