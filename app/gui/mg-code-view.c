/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mg-code-item.h"
#include "mg-code-namer.h"
#include "mg-code-view-private.h"
#include "mg-flame-options.h"
#include "mg-flame-view.h"
#include "mg-source-view.h"
#include "plot/mg-call-index.h"
#include "profile/mg-profile-threads.h"
#include "plot/mg-code-export.h"
#include "plot/mg-function-spread.h"
#include "plot/mg-selection-stats.h"
#include "plot/mg-view-export.h"
#include "gui/graph/mg-theme.h"
#include "mg-file-choosers.h"
#include "mg-window-internal.h"
#include "mg-wrap-layout.h"

struct _MgCodeView
{
  GtkBox parent_instance;

  MgTimeView *view;
  MgProfile *profile;
  MgFrameNamer *namer;     /* per profile: its addresses named once */
  MgCallIndex *index;      /* per profile: its stacks placed once, when first computed */
  MgSymbolizer *symbolizer; /* a live run's, across its profiles; else NULL */
  gint64 started_us;        /* when the last computation started */
  guint live_timer;         /* a live profile's computation, waiting its turn */
  gboolean running;        /* a worker is computing */
  gboolean dirty;          /* the range or process changed since it started */
  guint generation;        /* a new profile makes results in flight stale */
  MgCodeTree *current;

  /* The line above the views: the sample count, which is its own, then
   * the range, which the readout under the time axis also gives: only
   * the range is cut when the line is short of room. */
  GtkWidget *count;
  GtkWidget *summary;
  char *summary_text;
  GtkWidget *pages;        /* "views" or "empty" */
  GtkWidget *empty_title;
  GtkWidget *empty_detail;
  GtkWidget *view_stack;   /* "functions", "tree" */
  GListStore *functions;
  GtkSortListModel *functions_sorted;
  GtkColumnViewColumn *spread_columns[3]; /* Min, Mean, Max: several processes only */
  GListStore *roots;
  GtkTreeListModel *tree_rows;
  GtkWidget *tree_button;
  GtkWidget *flame_button;
  GtkWidget *flame;
  GtkWidget *bottom_up;
  GtkWidget *source_button;
  GtkWidget *source;        /* MgSourceView */
  GtkWidget *functions_view;
  GtkWidget *tree_view;
  GtkSingleSelection *functions_selection;
  GtkSingleSelection *tree_selection;
  char *selected_function;  /* NULL: none */
  GtkWidget *search;
  GtkWidget *matched;       /* the share of the samples the search found */
  char *needle;             /* the search, casefolded; NULL when empty */
  GBytes *matches;          /* by namer id: the functions it found; NULL */
  GtkCustomFilter *filter;
  GtkFilterListModel *functions_filtered;
  GtkWidget *threads;       /* All Threads, Main Thread, Thread 1, … */
  guint n_threads;          /* the threads listed beyond All Threads */
  int threads_process;      /* the process whose names they show (-1: all) */
  gboolean listing;         /* the threads' list is being replaced */
};

G_DEFINE_FINAL_TYPE (MgCodeView, mg_code_view, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_SELECTED_FUNCTION,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

enum {
  SIGNAL_FUNCTION_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void select_in_table (MgCodeView *self, const char *name);
static void on_selected_function (MgCodeView *self);

/* What a column shows of an item. */
typedef enum {
  COLUMN_NAME,
  COLUMN_SELF_SHARE,
  COLUMN_TOTAL_SHARE,
  COLUMN_SAMPLES,
  COLUMN_LOCATION,
  COLUMN_MODULE,
  COLUMN_MIN,          /* across processes: the Functions table of several */
  COLUMN_MEAN,
  COLUMN_MAX,
} Column;

/* The search found the item's function. */
static gboolean
item_matches (MgCodeView *self, MgCodeItem *item)
{
  gsize n = 0;
  const guint8 *found = self && self->matches ? g_bytes_get_data (self->matches, &n) : NULL;
  guint id = mg_code_item_get_function_id (item);

  return found != NULL && id < n && found[id];
}

static MgCodeItem *
item_of (GtkListItem *list_item, gboolean tree)
{
  gpointer item = gtk_list_item_get_item (list_item);
  if (tree && GTK_IS_TREE_LIST_ROW (item))
    return gtk_tree_list_row_get_item (item);  /* a new reference */
  return item ? g_object_ref (item) : NULL;
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  Column column = GPOINTER_TO_INT (data);
  gboolean tree = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "tree"));
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_ellipsize (GTK_LABEL (label), column == COLUMN_NAME ? PANGO_ELLIPSIZE_MIDDLE
                                                                    : PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (label),
                        column == COLUMN_SELF_SHARE || column == COLUMN_TOTAL_SHARE
                        || column == COLUMN_SAMPLES || column >= COLUMN_MIN ? 1 : 0);
  if (column != COLUMN_NAME && column != COLUMN_LOCATION && column != COLUMN_MODULE)
    gtk_widget_add_css_class (label, "numeric");
  if (tree && column == COLUMN_NAME)
    {
      GtkWidget *expander = gtk_tree_expander_new ();
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (list_item, expander);
    }
  else
    gtk_list_item_set_child (list_item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data)
{
  Column column = GPOINTER_TO_INT (data);
  gboolean tree = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "tree"));
  g_autoptr (MgCodeItem) item = item_of (list_item, tree);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;

  if (GTK_IS_TREE_EXPANDER (child))
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child),
                                      gtk_list_item_get_item (list_item));
      child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
    }
  if (item == NULL)
    return;
  switch (column)
    {
    case COLUMN_NAME:
      text = g_strdup (mg_code_item_get_name (item));
      gtk_widget_set_tooltip_text (child, text);
      if (item_matches (g_object_get_data (G_OBJECT (factory), "code-view"), item))
        gtk_widget_add_css_class (child, "search-match");
      else
        gtk_widget_remove_css_class (child, "search-match");
      break;
    case COLUMN_SELF_SHARE:
      text = g_strdup_printf ("%.1f %%", mg_code_item_get_self_share (item));
      break;
    case COLUMN_TOTAL_SHARE:
      text = g_strdup_printf ("%.1f %%", mg_code_item_get_total_share (item));
      break;
    case COLUMN_SAMPLES:
      text = g_strdup_printf ("%" G_GUINT64_FORMAT, mg_code_item_get_total (item));
      break;
    case COLUMN_LOCATION:
      text = g_strdup (mg_code_item_get_location (item));
      break;
    case COLUMN_MODULE:
      text = g_strdup (mg_code_item_get_module (item));
      break;
    case COLUMN_MIN:
    case COLUMN_MEAN:
    case COLUMN_MAX:
      text = mg_code_item_format_spread (item, column - COLUMN_MIN);
      break;
    }
  gtk_label_set_text (GTK_LABEL (child), text);
}

static GtkSorter *
column_sorter (Column column)
{
  const char *property = NULL;

  switch (column)
    {
    case COLUMN_NAME:
      property = "name";
      break;
    case COLUMN_SELF_SHARE:
      property = "self";
      break;
    case COLUMN_TOTAL_SHARE:
    case COLUMN_SAMPLES:
      property = "total";
      break;
    case COLUMN_LOCATION:
      property = "location";
      break;
    case COLUMN_MODULE:
      property = "module";
      break;
    case COLUMN_MIN:
      property = "spread-min";
      break;
    case COLUMN_MEAN:
      property = "spread-mean";
      break;
    case COLUMN_MAX:
      property = "spread-max";
      break;
    }
  GtkExpression *e = gtk_property_expression_new (MG_TYPE_CODE_ITEM, NULL, property);
  if (column == COLUMN_NAME || column == COLUMN_LOCATION || column == COLUMN_MODULE)
    return GTK_SORTER (gtk_string_sorter_new (e));
  /* Ascending in its own order, so that the header's arrow points the
   * way the rows go (it pointed up over the largest-first table). */
  return GTK_SORTER (gtk_numeric_sorter_new (e));
}

static GtkColumnViewColumn *
add_column (MgCodeView *self, GtkColumnView *view, const char *title, Column column,
            gboolean tree)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *c;

  g_object_set_data (G_OBJECT (factory), "tree", GINT_TO_POINTER (tree));
  g_object_set_data (G_OBJECT (factory), "code-view", self);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (column));
  c = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (c, TRUE);
  if (column == COLUMN_NAME)
    gtk_column_view_column_set_expand (c, TRUE);
  if (!tree)
    {
      g_autoptr (GtkSorter) sorter = column_sorter (column);
      gtk_column_view_column_set_sorter (c, sorter);
    }
  gtk_column_view_append_column (view, c);
  g_object_unref (c);
  return c;
}

static void
add_columns (MgCodeView *self, GtkColumnView *view, gboolean tree)
{
  /* Translators: column of the code views: the function's name */
  add_column (self, view, _("Function"), COLUMN_NAME, tree);
  /* Translators: column of the code views: % of the samples taken in the function itself */
  add_column (self, view, _("Self"), COLUMN_SELF_SHARE, tree);
  /* Translators: column of the code views: % of the samples in the function or what it called */
  GtkColumnViewColumn *total = add_column (self, view, _("Total"), COLUMN_TOTAL_SHARE, tree);
  /* Translators: column of the code views: samples in the function or what it called */
  add_column (self, view, _("Samples"), COLUMN_SAMPLES, tree);
  /* Translators: column of the code views: source file and line */
  add_column (self, view, _("Source"), COLUMN_LOCATION, tree);
  /* Translators: column of the code views: the executable or library */
  add_column (self, view, _("Module"), COLUMN_MODULE, tree);
  if (!tree)
    /* Largest first, the arrow pointing down. */
    gtk_column_view_sort_by_column (view, total, GTK_SORT_DESCENDING);
}

/* Min, Mean and Max of each function's total share across the processes,
 * after Total, as the metric rows' figures across ranks; shown for a
 * selection of several processes only. */
static void
add_spread_columns (MgCodeView *self, GtkColumnView *view)
{
  const char *titles[] = {
    /* Translators: column of the Functions table: the smallest share of a
     * process's samples in the function, over the processes */
    C_("across processes", "Min"),
    /* Translators: column of the Functions table: the mean share over the processes */
    C_("across processes", "Mean"),
    /* Translators: column of the Functions table: the largest share of a process */
    C_("across processes", "Max"),
  };

  for (guint i = 0; i < 3; i++)
    {
      GtkColumnViewColumn *c = add_column (self, view, titles[i], COLUMN_MIN + i, FALSE);

      /* add_column appended it: after Self and Total instead. */
      g_object_ref (c);
      gtk_column_view_remove_column (view, c);
      gtk_column_view_insert_column (view, 3 + i, c);
      g_object_unref (c);
      gtk_column_view_column_set_visible (c, FALSE);
      self->spread_columns[i] = c;
    }
}

/* Nothing selected until the user picks a row. */
static GtkSingleSelection *
selection_of (GListModel *model)
{
  GtkSingleSelection *selection = gtk_single_selection_new (model);
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  return selection;
}

/* The function of a row of either view (a table item or a tree row). */
static const char *
name_of_row (gpointer row)
{
  g_autoptr (MgCodeItem) item = NULL;

  if (row == NULL)
    return NULL;
  item = GTK_IS_TREE_LIST_ROW (row) ? gtk_tree_list_row_get_item (row) : g_object_ref (row);
  /* The item lives in its store as long as the row does. */
  return item ? mg_code_item_get_name (item) : NULL;
}

static void
on_row_selected (GtkSingleSelection *selection, GParamSpec *pspec, MgCodeView *self)
{
  gpointer row = gtk_single_selection_get_selected_item (selection);

  /* A row gone with a new result is no choice of the user's. */
  if (row != NULL)
    mg_code_view_set_selected_function (self, name_of_row (row));
}

static void
on_row_activated (GtkColumnView *view, guint position, MgCodeView *self)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr (GObject) row = g_list_model_get_item (model, position);
  const char *name = name_of_row (row);

  if (name == NULL)
    return;
  mg_code_view_set_selected_function (self, name);
  g_signal_emit (self, signals[SIGNAL_FUNCTION_ACTIVATED], 0, name);
}

static void
follow_rows (MgCodeView *self, GtkWidget *view, GtkSingleSelection *selection)
{
  g_signal_connect (selection, "notify::selected-item", G_CALLBACK (on_row_selected), self);
  g_signal_connect (view, "activate", G_CALLBACK (on_row_activated), self);
}

static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *s = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (s), child);
  gtk_widget_set_vexpand (s, TRUE);
  return s;
}

/* The table's rows: the search's, or all without one. */
static gboolean
filter_item (gpointer item, gpointer user_data)
{
  MgCodeView *self = user_data;
  return self->needle == NULL || item_matches (self, item);
}

/* Tab and Shift+Tab leave a table at once (code.leave-table, -back): GTK
 * 4.8's column view gives every row a Tab stop, so leaving the Functions
 * table or the call tree took a Tab per row shown. Arrows move between
 * rows. */
static void
add_tab_keys (GtkWidget *view)
{
  GtkEventController *keys = gtk_shortcut_controller_new ();
  static const struct {
    guint key;
    GdkModifierType modifiers;
    const char *action;
  } bindings[] = {
    { GDK_KEY_Tab, 0, "code.leave-table" },
    { GDK_KEY_KP_Tab, 0, "code.leave-table" },
    /* Shift+Tab's ISO_Left_Tab too: GTK matches it as Tab with Shift. */
    { GDK_KEY_Tab, GDK_SHIFT_MASK, "code.leave-table-back" },
  };

  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    gtk_shortcut_controller_add_shortcut (
      GTK_SHORTCUT_CONTROLLER (keys),
      gtk_shortcut_new (gtk_keyval_trigger_new (bindings[i].key, bindings[i].modifiers),
                        gtk_named_action_new (bindings[i].action)));
  gtk_widget_add_controller (view, keys);
}

/* The focus to the widget before or after the table holding it: the table
 * (and its rows) out of the focus chain while GTK moves it. */
static void
leave_table_activated (GtkWidget *widget, const char *action, GVariant *parameter)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *table = focus != NULL ? gtk_widget_get_ancestor (focus, GTK_TYPE_COLUMN_VIEW) : NULL;
  GtkDirectionType direction = g_str_equal (action, "code.leave-table-back")
                                 ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD;

  if (table == NULL)
    return;
  gtk_widget_set_can_focus (table, FALSE);
  /* At the end of the window's chain, round to its other end. */
  if (!gtk_widget_child_focus (GTK_WIDGET (root), direction))
    gtk_widget_child_focus (GTK_WIDGET (root), direction);
  gtk_widget_set_can_focus (table, TRUE);
}

static GtkWidget *
build_functions (MgCodeView *self)
{
  GtkWidget *view = gtk_column_view_new (NULL);

  self->functions_view = view;
  self->functions = g_list_store_new (MG_TYPE_CODE_ITEM);
  add_columns (self, GTK_COLUMN_VIEW (view), FALSE);
  add_spread_columns (self, GTK_COLUMN_VIEW (view));
  self->functions_sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->functions)),
                                                    g_object_ref (gtk_column_view_get_sorter (
                                                      GTK_COLUMN_VIEW (view))));
  self->filter = gtk_custom_filter_new (filter_item, self, NULL);
  self->functions_filtered = gtk_filter_list_model_new (
    G_LIST_MODEL (g_object_ref (self->functions_sorted)), GTK_FILTER (g_object_ref (self->filter)));
  self->functions_selection = selection_of (
    G_LIST_MODEL (g_object_ref (self->functions_filtered)));
  gtk_column_view_set_model (GTK_COLUMN_VIEW (view),
                             GTK_SELECTION_MODEL (g_object_ref (self->functions_selection)));
  follow_rows (self, view, self->functions_selection);
  gtk_widget_add_css_class (view, "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Functions"), -1);
  add_tab_keys (view);
  return scrolled (view);
}

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  return mg_code_item_dup_children (item);
}

static void fill_tree (MgCodeView *self);

static GtkWidget *
build_tree (MgCodeView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *view = gtk_column_view_new (NULL);

  self->tree_view = view;
  self->roots = g_list_store_new (MG_TYPE_CODE_ITEM);
  self->tree_rows = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->roots)), FALSE,
                                             FALSE, create_children, NULL, NULL);
  add_columns (self, GTK_COLUMN_VIEW (view), TRUE);
  self->tree_selection = selection_of (G_LIST_MODEL (g_object_ref (self->tree_rows)));
  gtk_column_view_set_model (GTK_COLUMN_VIEW (view),
                             GTK_SELECTION_MODEL (g_object_ref (self->tree_selection)));
  follow_rows (self, view, self->tree_selection);
  gtk_widget_add_css_class (view, "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Call Tree"), -1);
  /* Right opens a row (then goes to its first child), Left closes it (then
   * goes to its parent): before the list's own keys see them. */
  GtkEventController *keys = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  static const struct {
    guint key;
    const char *action;
  } bindings[] = {
    { GDK_KEY_Right, "code.expand-row" }, { GDK_KEY_KP_Right, "code.expand-row" },
    { GDK_KEY_Left, "code.collapse-row" }, { GDK_KEY_KP_Left, "code.collapse-row" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    gtk_shortcut_controller_add_shortcut (
      GTK_SHORTCUT_CONTROLLER (keys),
      gtk_shortcut_new (gtk_keyval_trigger_new (bindings[i].key, 0),
                        gtk_named_action_new (bindings[i].action)));
  gtk_widget_add_controller (view, keys);
  add_tab_keys (view);
  gtk_box_append (GTK_BOX (box), scrolled (view));
  return box;
}

static GtkWidget *
build_empty (MgCodeView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_start (box, 24);
  gtk_widget_set_margin_end (box, 24);
  self->empty_title = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->empty_title, "title-4");
  self->empty_detail = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->empty_detail), TRUE);
  gtk_label_set_justify (GTK_LABEL (self->empty_detail), GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (self->empty_detail, "dim-label");
  gtk_box_append (GTK_BOX (box), self->empty_title);
  gtk_box_append (GTK_BOX (box), self->empty_detail);
  return box;
}

static void
on_bottom_up_toggled (MgCodeView *self)
{
  fill_tree (self);
}

/* Two linked toggle buttons, the first one active: a stack switcher of
 * our own, so the window's one GtkStackSwitcher stays the side panel's. */
static GtkWidget *
linked_pair (const char *first_label, const char *second_label, GtkWidget **second)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *first = gtk_toggle_button_new_with_label (first_label);

  *second = gtk_toggle_button_new_with_label (second_label);
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (*second), GTK_TOGGLE_BUTTON (first));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (first), TRUE);
  gtk_widget_add_css_class (box, "linked");
  gtk_box_append (GTK_BOX (box), first);
  gtk_box_append (GTK_BOX (box), *second);
  return box;
}

static GtkWidget *ensure_source (MgCodeView *self);

static void
on_page_toggled (MgCodeView *self)
{
  const char *page = "functions";

  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->tree_button)))
    page = "tree";
  else if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->flame_button)))
    page = "flame";
  else if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->source_button)))
    page = "source";
  if (g_str_equal (page, "source"))
    ensure_source (self);
  gtk_stack_set_visible_child_name (GTK_STACK (self->view_stack), page);
}

static void
on_page_changed (GtkStack *stack)
{
  const char *name = gtk_stack_get_visible_child_name (stack);
  gtk_widget_set_visible (g_object_get_data (G_OBJECT (stack), "order"),
                          g_strcmp0 (name, "tree") == 0);
  gtk_widget_set_visible (g_object_get_data (G_OBJECT (stack), "flame-options"),
                          g_strcmp0 (name, "flame") == 0);
}

static void schedule (MgCodeView *self);

static void
on_thread_chosen (MgCodeView *self)
{
  if (!self->listing)
    schedule (self);
}

/* The filter chosen: MG_STACK_THREAD_ALL, or a thread's ordinal (the
 * list's entry after All Threads: Main Thread is ordinal 0). */
static int
chosen_thread (MgCodeView *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->threads));
  if (selected == 0 || selected == GTK_INVALID_LIST_POSITION)
    return MG_STACK_THREAD_ALL;
  return (int) selected - 1;
}

/* Lists n threads (ordinals 0 to n - 1) with the names of process's
 * threads, keeping the choice when it is still there; hidden when the
 * stacks name no thread (older profiles). */
static void
list_threads (MgCodeView *self, MgProfile *profile, guint n, int process)
{
  gtk_widget_set_visible (self->threads, n > 0);
  if (n == self->n_threads && process == self->threads_process)
    return;
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->threads));
  g_autoptr (GtkStringList) list = gtk_string_list_new (NULL);
  gtk_string_list_append (list, _("All Threads"));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = mg_profile_dup_thread_label (profile, process, i);
      gtk_string_list_append (list, label);
    }
  self->listing = TRUE;
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->threads), G_LIST_MODEL (list));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->threads), selected <= n ? selected : 0);
  self->listing = FALSE;
  self->n_threads = n;
  self->threads_process = process;
}
static void on_search_changed (MgCodeView *self);

static GtkWidget *
build_header (MgCodeView *self)
{
  /* The views' switches, then the search, count and export: on a line
   * below them when the pane is too narrow for both (mg-wrap-layout.h). */
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *views = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *tools = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *pages = linked_pair (_("Functions"), _("Call Tree"), &self->tree_button);

  gtk_widget_set_layout_manager (header, mg_wrap_layout_new (12));
  gtk_box_append (GTK_BOX (header), views);
  gtk_box_append (GTK_BOX (header), tools);
  gtk_widget_add_css_class (header, "code-header");
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 12);
  gtk_widget_set_margin_top (header, 6);
  gtk_widget_set_margin_bottom (header, 6);
  /* Translators: the Code pane's view of the call tree as stacked boxes */
  self->flame_button = gtk_toggle_button_new_with_label (_("Flame Graph"));
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (self->flame_button),
                               GTK_TOGGLE_BUTTON (self->tree_button));
  gtk_widget_set_tooltip_text (self->flame_button,
                               _("Click a function to zoom to it, a row above to zoom out; "
                                 "double-click a function to open its source"));
  gtk_box_append (GTK_BOX (pages), self->flame_button);
  /* Translators: the Code pane's view of the selected function's source file */
  self->source_button = gtk_toggle_button_new_with_label (_("Source"));
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (self->source_button),
                               GTK_TOGGLE_BUTTON (self->tree_button));
  gtk_widget_set_tooltip_text (self->source_button,
                               _("The selected function's source, with each line's share"));
  gtk_box_append (GTK_BOX (pages), self->source_button);
  g_signal_connect_swapped (self->tree_button, "toggled", G_CALLBACK (on_page_toggled), self);
  g_signal_connect_swapped (self->flame_button, "toggled", G_CALLBACK (on_page_toggled), self);
  g_signal_connect_swapped (self->source_button, "toggled", G_CALLBACK (on_page_toggled), self);
  gtk_box_append (GTK_BOX (views), pages);

  GtkWidget *order = linked_pair (
    /* Translators: the call tree from main down to where samples landed */
    _("Top Down"),
    /* Translators: the call tree from where samples landed up to their callers */
    _("Bottom Up"), &self->bottom_up);
  gtk_widget_set_tooltip_text (gtk_widget_get_first_child (order),
                               _("Each function with what it called"));
  gtk_widget_set_tooltip_text (self->bottom_up,
                               _("Each function where samples landed, with its callers"));
  g_signal_connect_swapped (self->bottom_up, "toggled", G_CALLBACK (on_bottom_up_toggled), self);
  gtk_box_append (GTK_BOX (views), order);
  /* The flame graph's icicle or flame: shown with it only. */
  GtkWidget *flame_options = mg_flame_options_new (MG_FLAME_VIEW (self->flame));
  gtk_box_append (GTK_BOX (views), flame_options);
  g_object_set_data (G_OBJECT (self->view_stack), "flame-options", flame_options);
  /* The order is the call tree's: shown with it only. */
  g_object_set_data (G_OBJECT (self->view_stack), "order", order);
  g_signal_connect (self->view_stack, "notify::visible-child-name",
                    G_CALLBACK (on_page_changed), NULL);
  on_page_changed (GTK_STACK (self->view_stack));

  /* The thread filter: listed once the stacks say which threads there
   * are (show_result). */
  self->threads = gtk_drop_down_new_from_strings ((const char *const[]) { _("All Threads"), NULL });
  gtk_widget_set_tooltip_text (self->threads, _("Show the stacks of every thread or of one"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->threads), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Thread"), -1);
  gtk_widget_set_visible (self->threads, FALSE);
  g_signal_connect_swapped (self->threads, "notify::selected", G_CALLBACK (on_thread_chosen), self);
  gtk_box_append (GTK_BOX (views), self->threads);

  self->search = gtk_search_entry_new ();
  g_object_set (self->search, "placeholder-text", _("Find functions, files, modules"), NULL);
  /* Never squeezed to "Fi…" by a crowded header (the Call Tree's at
   * 1024 px): the range beside the count gives way first. */
  gtk_editable_set_width_chars (GTK_EDITABLE (self->search), 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->search), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Search the code views"), -1);
  /* Each keystroke: the views are cheap to filter. */
  g_signal_connect_swapped (self->search, "changed", G_CALLBACK (on_search_changed), self);
  gtk_box_append (GTK_BOX (tools), self->search);
  self->matched = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->matched, "caption");
  gtk_widget_set_visible (self->matched, FALSE);
  gtk_box_append (GTK_BOX (tools), self->matched);

  GMenu *menu = g_menu_new ();
  /* Translators: the Code pane's export menu */
  g_menu_append (menu, _("Flame Graph as Image…"), "code.export-flame");
  g_menu_append (menu, _("Functions as CSV…"), "code.export-functions");
  GtkWidget *export = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (export), "document-save-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (export), G_MENU_MODEL (menu));
  g_object_unref (menu);
  gtk_widget_set_tooltip_text (export, _("Export the flame graph or the functions"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (export), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Export"), -1);

  /* One line of two labels: the count takes the room left and keeps the
   * line to the right; the range, beside it, is what shrinks. */
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_hexpand (line, TRUE);
  gtk_widget_add_css_class (line, "dim-label");
  gtk_widget_add_css_class (line, "caption");
  self->count = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->count), 1);
  gtk_widget_set_hexpand (self->count, TRUE);
  gtk_box_append (GTK_BOX (line), self->count);
  self->summary = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->summary), PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (line), self->summary);
  gtk_box_append (GTK_BOX (tools), line);
  gtk_box_append (GTK_BOX (tools), export);
  return header;
}

/* COUNT is never cut; RANGE (may be NULL) is, at its end, and the
 * tooltip gives the whole line. */
static void
set_summary (MgCodeView *self, const char *count, const char *range)
{
  g_autofree char *rest = range != NULL ? g_strconcat (" · ", range, NULL) : NULL;

  g_free (self->summary_text);
  self->summary_text = g_strconcat (count, rest, NULL);
  gtk_label_set_text (GTK_LABEL (self->count), count);
  gtk_label_set_text (GTK_LABEL (self->summary), rest != NULL ? rest : "");
  gtk_widget_set_visible (self->summary, range != NULL);
  gtk_widget_set_tooltip_text (self->count, range != NULL ? self->summary_text : NULL);
  gtk_widget_set_tooltip_text (self->summary, range != NULL ? self->summary_text : NULL);
}

static void
fill_functions (MgCodeView *self)
{
  guint n = self->current ? mg_call_tree_get_n_functions (mg_code_tree_get (self->current)) : 0;
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, mg_code_item_new_function (self->current, i));
  g_list_store_splice (self->functions, 0, g_list_model_get_n_items (G_LIST_MODEL (self->functions)),
                       items->pdata, items->len);
}

/* The rows above the search's functions opened, down from the top (a
 * few thousand rows at most: a search of a common word stops there). */
static void
expand_to_matches (MgCodeView *self, MgCallTreeKind kind)
{
  gsize n_matches = 0;
  const guint8 *matches = self->matches ? g_bytes_get_data (self->matches, &n_matches) : NULL;
  GListModel *rows = G_LIST_MODEL (self->tree_rows);

  if (matches == NULL || self->current == NULL)
    return;
  g_autofree guint8 *below = mg_call_tree_find_matches (mg_code_tree_get (self->current), kind,
                                                        matches, (guint) n_matches);
  for (guint i = 0; i < g_list_model_get_n_items (rows) && i < 5000; i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (MgCodeItem) item = gtk_tree_list_row_get_item (row);
      guint node = mg_code_item_get_node (item);
      if (node != G_MAXUINT && below[node])
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
}

static void
fill_tree (MgCodeView *self)
{
  MgCallTreeKind kind = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->bottom_up))
                          ? MG_CALL_TREE_BOTTOM_UP : MG_CALL_TREE_TOP_DOWN;
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->current)
    {
      const MgCallTree *tree = mg_code_tree_get (self->current);
      for (guint i = 0; i < mg_call_tree_get_n_children (tree, kind, MG_CALL_TREE_ROOT); i++)
        g_ptr_array_add (items, mg_code_item_new_node (
          self->current, kind, mg_call_tree_get_child (tree, kind, MG_CALL_TREE_ROOT, i)));
    }
  g_list_store_splice (self->roots, 0, g_list_model_get_n_items (G_LIST_MODEL (self->roots)),
                       items->pdata, items->len);
  /* The first levels open: a tree of one root says nothing closed. So
   * does a chain of only callees: below them, a function that is its
   * caller's only callee opens too, so that a C program's tree (_start,
   * __libc_start_main_impl, __libc_start_call_main, main) shows what main
   * called, not a closed main three rows down. */
  GListModel *rows = G_LIST_MODEL (self->tree_rows);
  for (guint i = 0; i < g_list_model_get_n_items (rows) && i < 64; i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (GtkTreeListRow) parent = gtk_tree_list_row_get_parent (row);
      GListModel *siblings = parent ? gtk_tree_list_row_get_children (parent) : NULL;
      gboolean only_callee = siblings != NULL && g_list_model_get_n_items (siblings) == 1;
      if ((i < 4 && gtk_tree_list_row_get_depth (row) < 2) || only_callee)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  expand_to_matches (self, kind);
}

static gboolean
text_has (const char *text, const char *needle)
{
  g_autofree char *folded = text ? g_utf8_casefold (text, -1) : NULL;
  return folded != NULL && strstr (folded, needle) != NULL;
}

/* A function is found by its name, its file's or its module's base name. */
static gboolean
function_matches (const MgCallFunction *f, const char *needle)
{
  g_autofree char *file = f->file ? g_path_get_basename (f->file) : NULL;
  g_autofree char *module = f->module ? g_path_get_basename (f->module) : NULL;
  return text_has (f->name, needle) || text_has (file, needle) || text_has (module, needle);
}

/* The search over the namer's functions, then every view shown anew. */
static void
apply_search (MgCodeView *self)
{
  g_clear_pointer (&self->matches, g_bytes_unref);
  gtk_widget_set_visible (self->matched, FALSE);
  if (self->needle && self->namer)
    {
      guint n = mg_frame_namer_get_n_functions (self->namer);
      guint8 *found = g_new0 (guint8, MAX (n, 1));
      for (guint id = 0; id < n; id++)
        found[id] = function_matches (mg_frame_namer_get_function (self->namer, id), self->needle);
      self->matches = g_bytes_new_take (found, MAX (n, 1));
    }
  if (self->matches && self->current)
    {
      const MgCallTree *tree = mg_code_tree_get (self->current);
      guint64 total = mg_call_tree_get_total (tree);
      guint64 matched = mg_call_tree_count_matching (
        tree, g_bytes_get_data (self->matches, NULL), (guint) g_bytes_get_size (self->matches));
      g_autofree char *text = g_strdup_printf (
        /* Translators: the share of the samples whose stacks hold a function the
         * Code pane's search found */
        _("Matched %.1f %%"), total ? 100.0 * (double) matched / (double) total : 0.0);
      gtk_label_set_text (GTK_LABEL (self->matched), text);
      gtk_widget_set_visible (self->matched, TRUE);
    }
  mg_flame_view_set_matches (MG_FLAME_VIEW (self->flame), self->matches);
  fill_functions (self);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  select_in_table (self, self->selected_function);
  fill_tree (self);
}

static void
on_search_changed (MgCodeView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search));

  g_clear_pointer (&self->needle, g_free);
  if (text != NULL && *text != '\0')
    self->needle = g_utf8_casefold (text, -1);
  apply_search (self);
}

static void
show_empty (MgCodeView *self, const char *title, const char *detail)
{
  gtk_label_set_text (GTK_LABEL (self->empty_title), title);
  gtk_label_set_text (GTK_LABEL (self->empty_detail), detail);
  gtk_stack_set_visible_child_name (GTK_STACK (self->pages), "empty");
}

/* One computation: the stacks of a range and process, as a call tree. */
typedef struct {
  MgProfile *profile;
  MgFrameNamer *namer;
  MgCallIndex *index;      /* the profile's; built by the first job */
  int process;
  int thread;
  double t0, t1;
  guint generation;
  /* results */
  MgCodeTree *tree;
  guint n_processes;
  guint n_threads;
  GError *stacks_error;    /* the file's stacks are damaged: the views stay empty */
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;
  g_clear_object (&job->profile);
  g_clear_pointer (&job->namer, mg_frame_namer_unref);
  g_clear_pointer (&job->index, mg_call_index_unref);
  g_clear_pointer (&job->tree, mg_code_tree_unref);
  g_clear_error (&job->stacks_error);
  g_free (job);
}

static void
compute (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;

  /* A profile opened from a file decodes its stacks here, off the main
   * thread; damaged, they read as none and the view says why. */
  mg_profile_read_stacks (job->profile, &job->stacks_error);
  /* The first one names every stack: later ones only sum counts. It
   * also lists the threads the stacks name (none in older profiles),
   * counted while the index reads the stacks. */
  if (job->index == NULL)
    {
      job->index = mg_call_index_new (job->namer, job->profile);
      job->n_threads = mg_call_index_get_n_threads (job->index);
    }
  if (job->thread == MG_STACK_THREAD_ALL)
    job->tree = mg_code_tree_new (mg_call_index_query (job->index, job->process, job->t0, job->t1,
                                                       &job->n_processes));
  else
    {
      /* One thread: its stacks alone, a tree of their own. */
      g_autoptr (MgStackSet) set = mg_stack_set_new_for_thread (job->profile, job->process,
                                                                job->thread, job->t0, job->t1);
      job->n_processes = mg_stack_set_get_n_processes (set);
      job->tree = mg_code_tree_new (mg_call_tree_new (job->namer, set));
    }
  /* Every process, every thread: each function's share across them, as
   * for metrics, from the same index (one pass over each process's
   * entries). */
  if (job->process < 0 && job->thread == MG_STACK_THREAD_ALL && job->n_processes > 1)
    mg_code_tree_set_spread (
      job->tree,
      mg_function_spread_new_for_index (job->index, mg_profile_get_n_processes (job->profile),
                                        job->t0, job->t1),
      job->profile);
  g_task_return_boolean (task, TRUE);
}

static void start (MgCodeView *self);
static void schedule_live (MgCodeView *self);

static void
show_result (MgCodeView *self, Job *job)
{
  /* The count with a new index; the names with the process too. */
  list_threads (self, job->profile, job->n_threads != G_MAXUINT ? job->n_threads : self->n_threads,
                job->process);
  g_clear_pointer (&self->current, mg_code_tree_unref);
  self->current = mg_code_tree_ref (job->tree);
  for (guint i = 0; i < G_N_ELEMENTS (self->spread_columns); i++)
    gtk_column_view_column_set_visible (self->spread_columns[i],
                                        mg_code_tree_has_spread (self->current));
  mg_flame_view_set_tree (MG_FLAME_VIEW (self->flame), self->current);
  apply_search (self);

  guint64 total = mg_call_tree_get_total (mg_code_tree_get (self->current));
  g_autofree char *range = mg_time_view_describe_figures_range (self->view);
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, total);
  g_autofree char *samples = g_strdup_printf (
    /* Translators: %s is a count; the line above the code views */
    ngettext ("%s sample", "%s samples", total > G_MAXULONG ? G_MAXULONG : (gulong) total),
    count);
  /* Without stacks the pane says so and why: a count of 0 beside it
   * says nothing more. */
  if (job->stacks_error != NULL || job->n_processes == 0)
    set_summary (self, "", NULL);
  else
    set_summary (self, samples, range);

  if (job->stacks_error != NULL)
    show_empty (self, _("Call Stacks Damaged"), job->stacks_error->message);
  else if (job->n_processes == 0 && job->process < 0)
    show_empty (self, _("No Call Stacks"),
                _("This profile has no call stacks: record with stacks on (the default, "
                  "without --no-stacks) to see which functions the time went to."));
  else if (job->n_processes == 0)
    show_empty (self, _("No Call Stacks"),
                _("This process recorded no call stacks. Choose All Processes or another process."));
  else if (total == 0)
    show_empty (self, _("No Samples Here"),
                _("No call stack was sampled in this time range. Select a longer range, or "
                  "the whole run (Ctrl+0)."));
  else
    gtk_stack_set_visible_child_name (GTK_STACK (self->pages), "views");
}

static void
on_computed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  MgCodeView *self = MG_CODE_VIEW (source);
  Job *job = g_task_get_task_data (G_TASK (result));

  self->running = FALSE;
  /* A live run's older profile still shows; its index is not kept. */
  if (job->generation == self->generation && self->index == NULL && job->profile == self->profile)
    {
      self->index = mg_call_index_ref (job->index);
      if (self->source != NULL)
        mg_source_view_set_index (MG_SOURCE_VIEW (self->source), self->index);
    }
  if (job->generation == self->generation)
    show_result (self, job);
  /* A live run's next profile waits its turn (schedule_live ()). */
  if (self->dirty && self->symbolizer != NULL)
    {
      self->dirty = FALSE;
      schedule_live (self);
    }
  else if (self->dirty)
    start (self);
}

static void
start (MgCodeView *self)
{
  double t0, t1;
  Job *job;

  self->dirty = FALSE;
  if (self->profile == NULL)
    return;
  job = g_new0 (Job, 1);
  job->profile = g_object_ref (self->profile);
  job->namer = mg_frame_namer_ref (self->namer);
  job->index = self->index ? mg_call_index_ref (self->index) : NULL;
  job->process = mg_time_view_get_process (self->view);
  job->thread = chosen_thread (self);
  job->n_threads = G_MAXUINT; /* known again only with a new index */
  job->generation = self->generation;
  if (mg_time_view_get_figures_range (self->view, &t0, &t1) == MG_FIGURES_RANGE_RUN)
    t0 = -INFINITY, t1 = INFINITY;
  job->t0 = t0;
  job->t1 = t1;
  self->running = TRUE;
  self->started_us = g_get_monotonic_time ();
  g_autoptr (GTask) task = g_task_new (self, NULL, on_computed, NULL);
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, compute);
}

/* One computation at a time (the symboliser is for one thread): a
 * change while one runs is done when it ends, with the latest range. */
static void
schedule (MgCodeView *self)
{
  if (self->running)
    self->dirty = TRUE;
  else
    start (self);
}

/* A live run's profiles come four times a second: each names its stacks
 * anew, so at most one a second is computed (the latest), leaving the
 * CPU to the run and its merges. */
#define LIVE_INTERVAL_US G_USEC_PER_SEC

static gboolean
on_live_timer (gpointer data)
{
  MgCodeView *self = data;

  self->live_timer = 0;
  schedule (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_live (MgCodeView *self)
{
  gint64 wait = self->started_us + LIVE_INTERVAL_US - g_get_monotonic_time ();

  if (self->live_timer != 0)
    return;  /* it takes the latest profile when it fires */
  if (wait > 0)
    self->live_timer = g_timeout_add ((guint) (wait / 1000) + 1, on_live_timer, self);
  else
    schedule (self);
}

/* A new run's profile (NULL: none), named on SYMBOLIZER (NULL: its own);
 * a live run's first computed a second after its first profile, when
 * the program has started (loading symbols would compete with it). */
static void
show_profile (MgCodeView *self, MgProfile *profile, MgSymbolizer *symbolizer)
{
  self->generation++;
  g_clear_handle_id (&self->live_timer, g_source_remove);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->namer, mg_frame_namer_unref);
  g_clear_pointer (&self->index, mg_call_index_unref);
  g_clear_object (&self->symbolizer);
  g_clear_pointer (&self->current, mg_code_tree_unref);
  fill_functions (self);
  fill_tree (self);
  mg_flame_view_set_tree (MG_FLAME_VIEW (self->flame), NULL);
  if (self->source != NULL)
    mg_source_view_set_profile (MG_SOURCE_VIEW (self->source), profile);
  mg_code_view_set_selected_function (self, NULL);
  set_summary (self, "", NULL);
  /* Another profile's threads: All Threads again. */
  self->n_threads = G_MAXUINT;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->threads), 0);
  list_threads (self, NULL, 0, -1);
  if (profile == NULL)
    return;
  /* The first computation names every frame: seconds on a big profile. */
  set_summary (self, _("Naming symbols…"), NULL);
  self->profile = g_object_ref (profile);
  self->symbolizer = symbolizer ? g_object_ref (symbolizer) : NULL;
  self->namer = symbolizer ? mg_code_namer_new_for (profile, symbolizer)
                           : mg_code_namer_new (profile);
  if (symbolizer != NULL)
    {
      self->started_us = g_get_monotonic_time ();
      schedule_live (self);
    }
  else
    schedule (self);
}

void
mg_code_view_set_profile (MgCodeView *self, MgProfile *profile)
{
  g_return_if_fail (MG_IS_CODE_VIEW (self));
  show_profile (self, profile, NULL);
}

void
mg_code_view_set_live_profile (MgCodeView *self, MgProfile *profile)
{
  g_return_if_fail (MG_IS_CODE_VIEW (self));
  g_return_if_fail (MG_IS_PROFILE (profile));

  if (self->profile == NULL || self->symbolizer == NULL)
    {
      g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
      show_profile (self, profile, symbolizer);
      return;
    }
  /* The same run (generation kept: the last profile's result shows until
   * this one's comes), this profile's frames named through the symbols
   * loaded (one computation at a time: the symboliser is for one thread). */
  g_set_object (&self->profile, profile);
  g_clear_pointer (&self->index, mg_call_index_unref);
  g_clear_pointer (&self->namer, mg_frame_namer_unref);
  self->namer = mg_code_namer_new_for (profile, self->symbolizer);
  /* The Source view's figures follow the run too, its function kept. */
  if (self->source != NULL)
    mg_source_view_set_profile (MG_SOURCE_VIEW (self->source), profile);
  on_selected_function (self);
  schedule_live (self);
}

static void
on_flame_activated (MgFlameView *flame, const char *name, MgCodeView *self)
{
  mg_code_view_set_selected_function (self, name);
  g_signal_emit (self, signals[SIGNAL_FUNCTION_ACTIVATED], 0, name);
}

/* The Functions table's row of NAME selected (none when it has none). */
static void
select_in_table (MgCodeView *self, const char *name)
{
  GListModel *model = G_LIST_MODEL (self->functions_selection);
  guint found = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; name && i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (MgCodeItem) item = g_list_model_get_item (model, i);
      if (g_strcmp0 (mg_code_item_get_name (item), name) == 0)
        {
          found = i;
          break;
        }
    }
  if (gtk_single_selection_get_selected (self->functions_selection) != found)
    gtk_single_selection_set_selected (self->functions_selection, found);
}

const char *
mg_code_view_get_selected_function (MgCodeView *self)
{
  g_return_val_if_fail (MG_IS_CODE_VIEW (self), NULL);
  return self->selected_function;
}

void
mg_code_view_set_selected_function (MgCodeView *self, const char *name)
{
  g_return_if_fail (MG_IS_CODE_VIEW (self));

  if (g_strcmp0 (self->selected_function, name) == 0)
    return;
  g_free (self->selected_function);
  self->selected_function = g_strdup (name);
  select_in_table (self, name);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED_FUNCTION]);
}

/* The Functions table's rows as shown: sorted, the search's only. */
static GArray *
shown_rows (MgCodeView *self)
{
  GListModel *model = G_LIST_MODEL (self->functions_filtered);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (MgCodeItem) item = g_list_model_get_item (model, i);
      guint row = mg_code_item_get_row (item);
      g_array_append_val (rows, row);
    }
  return rows;
}

gboolean
mg_code_view_export (MgCodeView *self, const char *path, double scale, GError **error)
{
  MgViewFormat format;

  if (self->current == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("Nothing to export: the code views have no call stacks yet"));
      return FALSE;
    }
  const MgCallTree *tree = mg_code_tree_get (self->current);
  if (g_str_has_suffix (path, ".csv") || g_str_has_suffix (path, ".CSV"))
    {
      g_autoptr (GArray) rows = shown_rows (self);
      return mg_functions_csv_save (tree, rows, path, error);
    }
  if (!mg_view_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot export to “%s”: name the file .png, .svg or .pdf for the flame "
                     "graph, .csv for the functions"), path);
      return FALSE;
    }
  int process = mg_time_view_get_process (self->view);
  g_autofree char *range = mg_time_view_describe_figures_range (self->view);
  g_autofree char *who = process >= 0 && self->profile
                           ? mg_selection_stats_describe_process (self->profile, process)
                           : g_strdup (_("all processes"));
  g_autofree char *line = g_strdup_printf ("%s · %s", range, who);
  gsize n_matches = 0;
  const guint8 *matches = self->matches ? g_bytes_get_data (self->matches, &n_matches) : NULL;
  /* What the view shows: its orientation, colouring, zoom and search. */
  MgFlameView *flame = MG_FLAME_VIEW (self->flame);
  MgFlameStyle look = { .orientation = mg_flame_view_get_orientation (flame),
                        .colouring = mg_flame_view_get_colouring (flame),
                        .dark = mg_theme_is_dark (GTK_WIDGET (self)),
                        .root_label = _("All"),
                        .matches = matches,
                        .n_matches = (guint) n_matches };
  return mg_flame_export_save (tree, mg_flame_view_get_focus (flame), &look, _("Flame Graph"),
                               line, scale, path, error);
}

static void
on_export_chosen (GFile *file, double scale, gpointer user_data)
{
  MgCodeView *self = user_data;
  g_autofree char *path = g_file_get_path (file);
  g_autoptr (GError) error = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if ((path == NULL || !mg_code_view_export (self, path, scale, &error)) && MG_IS_WINDOW (root))
    mg_window_show_message (MG_WINDOW (root), _("Export Failed"),
                            error ? error->message : _("Choose a folder on this computer."));
}

static void
export_activated (GtkWidget *widget, const char *action, GVariant *parameter)
{
  MgCodeView *self = MG_CODE_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  gboolean flame = g_str_equal (action, "code.export-flame");

  if (self->current == NULL || !GTK_IS_WINDOW (root))
    return;
  mg_file_chooser_export (GTK_WINDOW (root), flame ? "flame-graph.svg" : "functions.csv",
                          on_export_chosen, self);
}

static void
select_tree_row (MgCodeView *self, guint position)
{
  gtk_single_selection_set_selected (self->tree_selection, position);
}

static void
tree_key_activated (GtkWidget *widget, const char *action, GVariant *parameter)
{
  MgCodeView *self = MG_CODE_VIEW (widget);
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->tree_selection);
  guint position = gtk_single_selection_get_selected (self->tree_selection);

  if (row == NULL)
    {
      if (g_list_model_get_n_items (G_LIST_MODEL (self->tree_rows)) > 0)
        select_tree_row (self, 0);
      return;
    }
  if (g_str_equal (action, "code.expand-row"))
    {
      if (!gtk_tree_list_row_is_expandable (row))
        return;
      if (!gtk_tree_list_row_get_expanded (row))
        gtk_tree_list_row_set_expanded (row, TRUE);
      else
        select_tree_row (self, position + 1);
    }
  else if (gtk_tree_list_row_get_expanded (row))
    gtk_tree_list_row_set_expanded (row, FALSE);
  else
    {
      g_autoptr (GtkTreeListRow) parent = gtk_tree_list_row_get_parent (row);
      if (parent != NULL)
        select_tree_row (self, gtk_tree_list_row_get_position (parent));
    }
}

static const char *const range_properties[] = {
  "notify::start", "notify::end", "notify::has-selection", "notify::selection-start",
  "notify::selection-end", "notify::process",
};

static void
mg_code_view_dispose (GObject *object)
{
  MgCodeView *self = MG_CODE_VIEW (object);

  self->generation++;
  g_clear_handle_id (&self->live_timer, g_source_remove);
  mg_time_view_unfollow (&self->view, self);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->namer, mg_frame_namer_unref);
  g_clear_pointer (&self->index, mg_call_index_unref);
  g_clear_object (&self->symbolizer);
  g_clear_pointer (&self->current, mg_code_tree_unref);
  g_clear_object (&self->functions);
  g_clear_object (&self->functions_sorted);
  g_clear_object (&self->roots);
  g_clear_object (&self->tree_rows);
  g_clear_object (&self->functions_selection);
  g_clear_object (&self->tree_selection);
  g_clear_object (&self->functions_filtered);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->matches, g_bytes_unref);
  G_OBJECT_CLASS (mg_code_view_parent_class)->dispose (object);
}

static void
mg_code_view_finalize (GObject *object)
{
  g_free (MG_CODE_VIEW (object)->selected_function);
  g_free (MG_CODE_VIEW (object)->needle);
  g_free (MG_CODE_VIEW (object)->summary_text);
  G_OBJECT_CLASS (mg_code_view_parent_class)->finalize (object);
}

static void
mg_code_view_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  switch (id)
    {
    case PROP_SELECTED_FUNCTION:
      g_value_set_string (value, MG_CODE_VIEW (object)->selected_function);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
mg_code_view_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  switch (id)
    {
    case PROP_SELECTED_FUNCTION:
      mg_code_view_set_selected_function (MG_CODE_VIEW (object), g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
mg_code_view_class_init (MgCodeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mg_code_view_dispose;
  object_class->finalize = mg_code_view_finalize;
  object_class->get_property = mg_code_view_get_property;
  object_class->set_property = mg_code_view_set_property;
  props[PROP_SELECTED_FUNCTION] = g_param_spec_string (
    "selected-function", NULL, NULL, NULL,
    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  signals[SIGNAL_FUNCTION_ACTIVATED] = g_signal_new (
    "function-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
    G_TYPE_NONE, 1, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "code.export-flame", NULL,
                                   export_activated);
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "code.expand-row", NULL,
                                   tree_key_activated);
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "code.collapse-row", NULL,
                                   tree_key_activated);
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "code.export-functions", NULL,
                                   export_activated);
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "code.leave-table", NULL,
                                   leave_table_activated);
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "code.leave-table-back", NULL,
                                   leave_table_activated);
}

/* The Source view follows the selected function: its file, at its line. */
static void
on_selected_function (MgCodeView *self)
{
  const MgCallFunction *f = NULL;
  guint line = 0;

  if (self->current && self->selected_function)
    {
      const MgCallTree *tree = mg_code_tree_get (self->current);
      int row = mg_call_tree_find_function (tree, self->selected_function);
      if (row >= 0)
        f = mg_call_tree_get_function (tree, (guint) row, NULL, NULL);
      /* Its hottest line in the selection, as the Source column shows. */
      line = f ? mg_call_tree_get_line (tree, f) : 0;
    }
  if (self->source != NULL)
    mg_source_view_show_function (MG_SOURCE_VIEW (self->source), f ? f->name : NULL,
                                  f ? f->file : NULL, line);
}

/* The Source view, made when first shown: GtkSourceView's languages and
 * styles are loaded only by a user who reads source. */
static GtkWidget *
ensure_source (MgCodeView *self)
{
  if (self->source == NULL)
    {
      self->source = mg_source_view_new (self->view);
      gtk_stack_add_named (GTK_STACK (self->view_stack), self->source, "source");
      if (self->profile != NULL)
        mg_source_view_set_profile (MG_SOURCE_VIEW (self->source), self->profile);
      mg_source_view_set_index (MG_SOURCE_VIEW (self->source), self->index);
      on_selected_function (self);
    }
  return self->source;
}

/* A row or flame box double-clicked (or Enter): its source, at its line
 * in the selection now (the function already selected, the reader may
 * have scrolled away or the selection moved its hottest line). */
static void
on_function_activated (MgCodeView *self)
{
  mg_code_view_show_page (self, "source");
  on_selected_function (self);
}

static void
mg_code_view_init (MgCodeView *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_widget_add_css_class (GTK_WIDGET (self), "code-view");
  self->view_stack = gtk_stack_new ();
  gtk_stack_add_named (GTK_STACK (self->view_stack), build_functions (self), "functions");
  gtk_stack_add_named (GTK_STACK (self->view_stack), build_tree (self), "tree");
  self->flame = mg_flame_view_new ();
  g_signal_connect_swapped (self->flame, "function-selected",
                            G_CALLBACK (mg_code_view_set_selected_function), self);
  g_signal_connect (self->flame, "function-activated", G_CALLBACK (on_flame_activated), self);
  gtk_stack_add_named (GTK_STACK (self->view_stack), scrolled (self->flame), "flame");
  g_signal_connect (self, "notify::selected-function", G_CALLBACK (on_selected_function), NULL);
  g_signal_connect (self, "function-activated", G_CALLBACK (on_function_activated), NULL);
  self->pages = gtk_stack_new ();
  gtk_widget_set_vexpand (self->pages, TRUE);
  gtk_stack_add_named (GTK_STACK (self->pages), self->view_stack, "views");
  gtk_stack_add_named (GTK_STACK (self->pages), build_empty (self), "empty");
  gtk_box_append (GTK_BOX (self), build_header (self));
  gtk_box_append (GTK_BOX (self), self->pages);
}

GtkWidget *
mg_code_view_new (MgTimeView *view)
{
  MgCodeView *self = g_object_new (MG_TYPE_CODE_VIEW, NULL);

  self->view = g_object_ref (view);
  for (guint i = 0; i < G_N_ELEMENTS (range_properties); i++)
    g_signal_connect_swapped (view, range_properties[i], G_CALLBACK (schedule), self);
  return GTK_WIDGET (self);
}

MgCallIndex *
mg_code_view_get_index (MgCodeView *self)
{
  g_return_val_if_fail (MG_IS_CODE_VIEW (self), NULL);
  return self->index;
}

GtkWidget *
mg_code_view_get_source_view (MgCodeView *self)
{
  return ensure_source (self);
}

gboolean
mg_code_view_is_busy (MgCodeView *self)
{
  return self->running || self->dirty || self->live_timer != 0;
}

GListModel *
mg_code_view_get_functions_model (MgCodeView *self)
{
  return G_LIST_MODEL (self->functions_filtered);
}

GtkWidget *
mg_code_view_get_search_entry (MgCodeView *self)
{
  return self->search;
}

const char *
mg_code_view_get_matched (MgCodeView *self)
{
  if (!gtk_widget_get_visible (self->matched))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->matched));
}

GListModel *
mg_code_view_get_tree_model (MgCodeView *self)
{
  return G_LIST_MODEL (self->tree_rows);
}

void
mg_code_view_focus_search (MgCodeView *self)
{
  g_return_if_fail (MG_IS_CODE_VIEW (self));
  gtk_widget_grab_focus (self->search);
}

void
mg_code_view_show_page (MgCodeView *self, const char *page)
{
  GtkWidget *button = gtk_widget_get_prev_sibling (self->tree_button);

  if (g_str_equal (page, "tree"))
    button = self->tree_button;
  else if (g_str_equal (page, "flame"))
    button = self->flame_button;
  else if (g_str_equal (page, "source"))
    button = self->source_button;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
}

MgCodeTree *
mg_code_view_get_tree (MgCodeView *self)
{
  return self->current;
}

GtkWidget *
mg_code_view_get_functions_view (MgCodeView *self)
{
  return self->functions_view;
}

GtkWidget *
mg_code_view_get_tree_view (MgCodeView *self)
{
  return self->tree_view;
}

GtkWidget *
mg_code_view_get_flame_view (MgCodeView *self)
{
  return self->flame;
}

GtkWidget *
mg_code_view_get_flame_options (MgCodeView *self)
{
  return g_object_get_data (G_OBJECT (self->view_stack), "flame-options");
}

void
mg_code_view_set_bottom_up (MgCodeView *self, gboolean bottom_up)
{
  if (bottom_up)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->bottom_up), TRUE);
  else
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (gtk_widget_get_prev_sibling (self->bottom_up)),
                                  TRUE);
}

const char *
mg_code_view_get_empty_title (MgCodeView *self)
{
  if (g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (self->pages)), "empty") != 0)
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->empty_title));
}

gboolean
mg_code_view_get_spread_shown (MgCodeView *self)
{
  return gtk_column_view_column_get_visible (self->spread_columns[0]);
}

GtkWidget *
mg_code_view_get_threads (MgCodeView *self)
{
  return self->threads;
}

const char *
mg_code_view_get_summary (MgCodeView *self)
{
  return self->summary_text != NULL ? self->summary_text : "";
}
