/* The viewer's entry point. */
#include "mg-config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "mg-application.h"
#include "mg-gui.h"

int
mg_gui_run (int argc, char **argv)
{
  g_autoptr (MgApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, MG_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Metrograph"));
  app = mg_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
