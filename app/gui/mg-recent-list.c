/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-recent-list.h"

#define MAX_RECENT 8

guint
mg_recent_list_fill (GtkListBox *list)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GList *items = gtk_recent_manager_get_items (manager);
  GtkWidget *child;
  guint n = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);

  for (GList *l = items; l != NULL && n < MAX_RECENT; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      const char *uri = gtk_recent_info_get_uri (info);
      GtkWidget *row, *box, *name, *where;
      g_autoptr (GFile) file = NULL;
      g_autoptr (GFile) parent = NULL;
      g_autofree char *folder = NULL;

      if (!g_str_has_suffix (uri, ".mgprof") || !gtk_recent_info_exists (info))
        continue;
      file = g_file_new_for_uri (uri);
      parent = g_file_get_parent (file);
      folder = parent ? g_file_get_parse_name (parent) : g_strdup ("");
      box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      name = gtk_label_new (gtk_recent_info_get_display_name (info));
      where = gtk_label_new (folder);
      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_xalign (GTK_LABEL (where), 0);
      gtk_label_set_ellipsize (GTK_LABEL (where), PANGO_ELLIPSIZE_START);
      gtk_widget_add_css_class (where, "caption");
      gtk_widget_add_css_class (where, "dim-label");
      gtk_box_append (GTK_BOX (box), name);
      gtk_box_append (GTK_BOX (box), where);
      gtk_widget_set_margin_start (box, 12);
      gtk_widget_set_margin_end (box, 12);
      gtk_widget_set_margin_top (box, 8);
      gtk_widget_set_margin_bottom (box, 8);
      row = gtk_list_box_row_new ();
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      g_object_set_data_full (G_OBJECT (row), "uri", g_strdup (uri), g_free);
      gtk_list_box_append (list, row);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  return n;
}

const char *
mg_recent_list_row_get_uri (GtkListBoxRow *row)
{
  return g_object_get_data (G_OBJECT (row), "uri");
}
