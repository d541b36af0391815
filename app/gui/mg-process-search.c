/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The process chooser's search (mg-process-search.h). GtkDropDown matches
 * the start of an entry only, and GTK before 4.12 has no setting for it:
 * its popup's string filter is found in the popup's list and set to match
 * anywhere; GTK 4.12 and later are asked through their own setting. */
#include "mg-config.h"

#include "mg-process-search.h"

static GtkWidget *
find_descendant (GtkWidget *root, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_descendant (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_popover (GtkDropDown *dropdown)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (dropdown)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child))
      return child;
  return NULL;
}

/* The filtered model the popup's list shows, or NULL. */
static GtkFilterListModel *
find_filter_model (GtkDropDown *dropdown)
{
  GtkWidget *popover = find_popover (dropdown);
  GtkWidget *list = popover != NULL ? find_descendant (popover, GTK_TYPE_LIST_VIEW) : NULL;
  GtkSelectionModel *selection = list != NULL ? gtk_list_view_get_model (GTK_LIST_VIEW (list)) : NULL;
  GListModel *model = GTK_IS_SINGLE_SELECTION (selection)
                        ? gtk_single_selection_get_model (GTK_SINGLE_SELECTION (selection)) : NULL;

  return GTK_IS_FILTER_LIST_MODEL (model) ? GTK_FILTER_LIST_MODEL (model) : NULL;
}

/* Each model gets a new filter: set again after every change. */
static void
match_anywhere (GtkDropDown *dropdown)
{
#if GTK_CHECK_VERSION(4, 12, 0)
  gtk_drop_down_set_search_match_mode (dropdown, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
#else
  GtkFilterListModel *model = find_filter_model (dropdown);
  GtkFilter *filter = model != NULL ? gtk_filter_list_model_get_filter (model) : NULL;

  if (GTK_IS_STRING_FILTER (filter))
    {
      gtk_string_filter_set_match_mode (GTK_STRING_FILTER (filter),
                                        GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
      gtk_string_filter_set_ignore_case (GTK_STRING_FILTER (filter), TRUE);
    }
#endif
}

/* Typing right after the list opens goes to the search: the popover gives
 * the focus to its list otherwise. */
static void
on_popover_map (GtkWidget *popover, gpointer user_data)
{
  GtkWidget *entry = find_descendant (popover, GTK_TYPE_SEARCH_ENTRY);

  if (entry != NULL && gtk_widget_get_visible (entry))
    gtk_widget_grab_focus (entry);
}

void
mg_process_search_setup (GtkDropDown *dropdown)
{
  GtkWidget *popover = find_popover (dropdown);

  g_signal_connect (dropdown, "notify::model", G_CALLBACK (match_anywhere), NULL);
  g_signal_connect (dropdown, "notify::expression", G_CALLBACK (match_anywhere), NULL);
  match_anywhere (dropdown);
  if (popover != NULL)
    g_signal_connect_after (popover, "map", G_CALLBACK (on_popover_map), NULL);
}

GtkWidget *
mg_process_search_get_entry (GtkDropDown *dropdown)
{
  GtkWidget *popover = find_popover (dropdown);

  return popover != NULL ? find_descendant (popover, GTK_TYPE_SEARCH_ENTRY) : NULL;
}

guint
mg_process_search_get_n_shown (GtkDropDown *dropdown)
{
  GtkFilterListModel *model = find_filter_model (dropdown);

  return model != NULL ? g_list_model_get_n_items (G_LIST_MODEL (model)) : 0;
}
