/* The viewer application. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-application.h"

struct _MgApplication
{
  GtkApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (MgApplication, mg_application, GTK_TYPE_APPLICATION)

static void
mg_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    {
      window = GTK_WINDOW (gtk_application_window_new (GTK_APPLICATION (app)));
      gtk_window_set_title (window, _("Metrograph"));
      gtk_window_set_default_size (window, 1100, 760);
    }
  gtk_window_present (window);
}

static void
mg_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      GtkWindow *window = GTK_WINDOW (gtk_application_window_new (GTK_APPLICATION (app)));
      g_autofree char *name = g_file_get_basename (files[i]);

      gtk_window_set_title (window, name);
      gtk_window_set_default_size (window, 1100, 760);
      gtk_window_present (window);
    }
}

static void
mg_application_class_init (MgApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = mg_application_activate;
  app_class->open = mg_application_open;
}

static void
mg_application_init (MgApplication *self)
{
}

MgApplication *
mg_application_new (void)
{
  return g_object_new (MG_TYPE_APPLICATION,
                       "application-id", MG_APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       NULL);
}
