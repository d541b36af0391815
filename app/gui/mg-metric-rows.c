/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-metric-rows.h"

#include "mg-activity-row.h"
#include "mg-thread-strip-row.h"
#include "gui/graph/mg-activity-graph.h"

#include "mg-style.h"
#include "mg-tooltip.h"

/* Sections without a group id ("Other metrics") are remembered under this. */
#define NO_GROUP_KEY ""
/* A graph's height: rows share the height they are shown in within these,
 * so a few rows fill the window and many scroll. */
#define GRAPH_MIN_HEIGHT 80
#define GRAPH_MAX_HEIGHT 220

struct _MgMetricRows
{
  GtkWidget parent_instance;

  GtkWidget *box;
  MgMetricVisibility *visibility;
  GPtrArray *expanders;     /* GtkExpander*, one per section, top to bottom */
  GPtrArray *section_rows;  /* GPtrArray* of MgMetricRow* per section */
  GArray *sections;         /* guint: the visibility's section of each */
  GPtrArray *activity_rows; /* MgActivityRow* standing for the section's rows, or NULL */
  GHashTable *collapsed;    /* group ids (or NO_GROUP_KEY) collapsed by hand */
  gboolean empty;
  GtkAdjustment *vadjustment; /* of the scrolled window showing the rows, not owned */
  int graph_height;         /* every graph's, GRAPH_MIN_HEIGHT to GRAPH_MAX_HEIGHT */
  guint fit_idle;
};

G_DEFINE_FINAL_TYPE (MgMetricRows, mg_metric_rows, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_EMPTY, N_PROPS };
static GParamSpec *properties[N_PROPS];

static const char *
section_key (const MgMetricSection *section)
{
  return section->id != NULL ? section->id : NO_GROUP_KEY;
}

/* The rows shown: visible, in an expanded visible section. */
static guint
count_shown_rows (MgMetricRows *self)
{
  guint n = 0;

  for (guint s = 0; s < self->expanders->len; s++)
    {
      GtkWidget *expander = g_ptr_array_index (self->expanders, s);
      GPtrArray *rows = g_ptr_array_index (self->section_rows, s);

      if (!gtk_widget_get_visible (expander) || !gtk_expander_get_expanded (GTK_EXPANDER (expander)))
        continue;
      for (guint i = 0; i < rows->len; i++)
        n += gtk_widget_get_visible (g_ptr_array_index (rows, i));
      if (g_ptr_array_index (self->activity_rows, s) != NULL)
        n += gtk_widget_get_visible (g_ptr_array_index (self->activity_rows, s));
    }
  return n;
}

static void
set_graph_height (MgMetricRows *self, int height)
{
  self->graph_height = height;
  for (guint s = 0; s < self->section_rows->len; s++)
    {
      GPtrArray *rows = g_ptr_array_index (self->section_rows, s);

      MgActivityRow *activity = g_ptr_array_index (self->activity_rows, s);

      for (guint i = 0; i < rows->len; i++)
        gtk_widget_set_size_request (mg_metric_row_get_graph (g_ptr_array_index (rows, i)), -1,
                                     height);
      if (activity != NULL)
        gtk_widget_set_size_request (mg_activity_row_get_graph (activity), -1, height);
    }
}

/* Shares the scrolled window's height between the rows shown: what the
 * headers and the rows' padding leave, divided evenly, within the limits. */
static gboolean
fit_rows (gpointer data)
{
  MgMetricRows *self = data;
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  guint n = count_shown_rows (self);
  int natural, overhead, height;

  self->fit_idle = 0;
  if (self->vadjustment == NULL || n == 0 || width <= 0)
    return G_SOURCE_REMOVE;
  gtk_widget_measure (self->box, GTK_ORIENTATION_VERTICAL, width, NULL, &natural, NULL, NULL);
  overhead = natural - (int) n * self->graph_height;
  height = ((int) gtk_adjustment_get_page_size (self->vadjustment) - overhead) / (int) n;
  height = CLAMP (height, GRAPH_MIN_HEIGHT, GRAPH_MAX_HEIGHT);
  if (height != self->graph_height)
    set_graph_height (self, height);
  return G_SOURCE_REMOVE;
}

/* After the layout that changed what there is to fit (before the next
 * frame's). */
static void
queue_fit (MgMetricRows *self)
{
  if (self->fit_idle == 0 && self->vadjustment != NULL)
    self->fit_idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 10, fit_rows, self, NULL);
}

/* Whether the row is to be shown: the visibility's say, unless its
 * section's stacked activity row stands for its metrics. */
static gboolean
row_wanted (MgMetricRows *self, guint s, MgMetricRow *row)
{
  guint section = g_array_index (self->sections, guint, s);

  return g_ptr_array_index (self->activity_rows, s) == NULL
         && mg_metric_visibility_is_row_visible (self->visibility, section,
                                                 mg_metric_row_get_metric (row));
}

/* A row about to be hidden holds the keyboard: its graph hands it to the
 * next row that stays on screen (else the previous one) first. Left to
 * GTK, it went to the group's expander, and the rows scrolled to show
 * that group-tall widget's bottom: hiding the first of 30 metrics took
 * them 2264 px down. */
static void
move_focus_off_hidden_row (MgMetricRows *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *focused = focus != NULL ? gtk_widget_get_ancestor (focus, MG_TYPE_METRIC_ROW) : NULL;
  MgMetricRow *before = NULL;
  gboolean passed = FALSE;

  if (focused == NULL || !gtk_widget_is_ancestor (focused, GTK_WIDGET (self)))
    return;
  for (guint s = 0; s < self->expanders->len; s++)
    {
      GPtrArray *rows = g_ptr_array_index (self->section_rows, s);

      for (guint i = 0; i < rows->len; i++)
        {
          MgMetricRow *row = g_ptr_array_index (rows, i);
          gboolean stays = row_wanted (self, s, row)
                           && gtk_widget_get_mapped (mg_metric_row_get_graph (row));

          if (GTK_WIDGET (row) == focused)
            {
              if (row_wanted (self, s, row))
                return;
              passed = TRUE;
            }
          else if (stays && passed)
            {
              gtk_widget_grab_focus (mg_metric_row_get_graph (row));
              return;
            }
          else if (stays)
            before = row;
        }
    }
  if (before != NULL)
    gtk_widget_grab_focus (mg_metric_row_get_graph (before));
}

static void
update_visibility (MgMetricRows *self)
{
  gboolean any = FALSE;

  move_focus_off_hidden_row (self);
  for (guint s = 0; s < self->expanders->len; s++)
    {
      GPtrArray *rows = g_ptr_array_index (self->section_rows, s);
      GtkWidget *activity = g_ptr_array_index (self->activity_rows, s);
      guint section = g_array_index (self->sections, guint, s);
      gboolean any_in_section = FALSE;

      for (guint i = 0; i < rows->len; i++)
        {
          MgMetricRow *row = g_ptr_array_index (rows, i);
          gboolean visible = mg_metric_visibility_is_row_visible (self->visibility, section,
                                                                  mg_metric_row_get_metric (row));

          /* The stacked row stands for its section's metrics. */
          gtk_widget_set_visible (GTK_WIDGET (row), row_wanted (self, s, row));
          any_in_section |= visible;
        }
      if (activity != NULL)
        gtk_widget_set_visible (activity, any_in_section);
      gtk_widget_set_visible (g_ptr_array_index (self->expanders, s), any_in_section);
      any |= any_in_section;
    }
  if (self->empty != !any)
    {
      self->empty = !any;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMPTY]);
    }
  queue_fit (self);
}

static void
on_expanded (GtkExpander *expander, GParamSpec *pspec, MgMetricRows *self)
{
  const char *key = g_object_get_data (G_OBJECT (expander), "mg-section-key");

  if (gtk_expander_get_expanded (expander))
    g_hash_table_remove (self->collapsed, key);
  else
    g_hash_table_add (self->collapsed, g_strdup (key));
  queue_fit (self);
}

/* Whether every metric of section is an activity metric of one scope
 * (its group in plugins/activity.xml, or a preset's part of it): those
 * rows are drawn as one stacked row. */
static gboolean
section_scope (MgProfile *profile, const MgMetricSection *section, MgActivityScope *scope)
{
  if (section->metrics->len == 0)
    return FALSE;
  for (MgActivityScope candidate = MG_ACTIVITY_MAIN_THREAD; candidate <= MG_ACTIVITY_ALL_THREADS;
       candidate++)
    {
      gboolean all = TRUE;

      for (guint i = 0; i < section->metrics->len && all; i++)
        all = mg_activity_is_metric (profile, g_array_index (section->metrics, guint, i), candidate);
      if (all)
        {
          *scope = candidate;
          return TRUE;
        }
    }
  return FALSE;
}

static GtkWidget *
build_section (MgMetricRows *self, const MgMetricSection *section, MgTimeView *view,
               GtkSizeGroup *label_group, GPtrArray *rows, GtkWidget **activity_row)
{
  MgProfile *profile = mg_metric_visibility_get_profile (self->visibility);
  GtkWidget *expander = gtk_expander_new (NULL);
  GtkWidget *title = gtk_label_new (section->title);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_set_hexpand (title, TRUE);
  gtk_expander_set_label_widget (GTK_EXPANDER (expander), title);
  gtk_expander_set_expanded (GTK_EXPANDER (expander),
                             !g_hash_table_contains (self->collapsed, section_key (section)));
  gtk_widget_add_css_class (expander, "metric-group");
  if (section->description != NULL)
    mg_tooltip_set_text (title, section->description);
  g_object_set_data_full (G_OBJECT (expander), "mg-section-key", g_strdup (section_key (section)),
                          g_free);
  g_signal_connect (expander, "notify::expanded", G_CALLBACK (on_expanded), self);

  *activity_row = NULL;
  {
    MgActivityScope scope;
    MgActivitySeries series;

    if (section_scope (profile, section, &scope)
        && mg_activity_series_init (&series, profile, scope, -1))
      {
        *activity_row = mg_activity_row_new (profile, scope, view, section->description,
                                             label_group);
        gtk_widget_set_size_request (mg_activity_row_get_graph (MG_ACTIVITY_ROW (*activity_row)),
                                     -1, self->graph_height);
        gtk_box_append (GTK_BOX (box), *activity_row);
        /* The main thread's row, then each thread's strip under it. */
        if (scope == MG_ACTIVITY_MAIN_THREAD)
          gtk_box_append (GTK_BOX (box), mg_thread_strip_row_new (profile, view, label_group));
      }
  }
  for (guint i = 0; i < section->metrics->len; i++)
    {
      GtkWidget *row = mg_metric_row_new (profile, g_array_index (section->metrics, guint, i),
                                          view, label_group);

      gtk_widget_set_size_request (mg_metric_row_get_graph (MG_METRIC_ROW (row)), -1,
                                   self->graph_height);
      gtk_box_append (GTK_BOX (box), row);
      g_ptr_array_add (rows, row);
    }
  gtk_expander_set_child (GTK_EXPANDER (expander), box);
  return expander;
}

static void
clear (MgMetricRows *self)
{
  GtkWidget *child;

  if (self->visibility != NULL)
    g_signal_handlers_disconnect_by_data (self->visibility, self);
  for (guint s = 0; s < self->expanders->len; s++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->expanders, s), self);
  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);
  g_ptr_array_set_size (self->expanders, 0);
  g_ptr_array_set_size (self->section_rows, 0);
  g_ptr_array_set_size (self->activity_rows, 0);
  g_array_set_size (self->sections, 0);
  g_clear_object (&self->visibility);
}

/* The sections top to bottom: the visibility's order, except that in an
 * MPI or multi-threaded run the activity groups come first (main thread,
 * then all threads), as in MAP: where the time goes before what it cost. */
static GArray *
section_order (MgMetricVisibility *visibility)
{
  MgProfile *profile = mg_metric_visibility_get_profile (visibility);
  guint n = mg_metric_visibility_get_n_sections (visibility);
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  gboolean first = mg_metric_visibility_is_mpi_run (visibility)
                   || mg_activity_profile_is_multithreaded (profile);

  for (MgActivityScope scope = MG_ACTIVITY_MAIN_THREAD; first && scope <= MG_ACTIVITY_ALL_THREADS;
       scope++)
    for (guint s = 0; s < n; s++)
      {
        MgActivityScope found;

        if (section_scope (profile, mg_metric_visibility_get_section (visibility, s), &found)
            && found == scope)
          g_array_append_val (order, s);
      }
  for (guint s = 0; s < n; s++)
    {
      gboolean taken = FALSE;

      for (guint i = 0; i < order->len && !taken; i++)
        taken = g_array_index (order, guint, i) == s;
      if (!taken)
        g_array_append_val (order, s);
    }
  return order;
}

void
mg_metric_rows_set_visibility (MgMetricRows *self, MgMetricVisibility *visibility,
                               MgTimeView *view, GtkSizeGroup *label_group)
{
  g_return_if_fail (MG_IS_METRIC_ROWS (self));

  clear (self);
  if (visibility == NULL)
    {
      update_visibility (self);
      return;
    }
  self->visibility = g_object_ref (visibility);
  {
    g_autoptr (GArray) order = section_order (visibility);

    for (guint i = 0; i < order->len; i++)
      {
        guint s = g_array_index (order, guint, i);
        GPtrArray *rows = g_ptr_array_new ();
        GtkWidget *activity_row;
        GtkWidget *expander = build_section (self, mg_metric_visibility_get_section (visibility, s),
                                             view, label_group, rows, &activity_row);

        gtk_box_append (GTK_BOX (self->box), expander);
        g_ptr_array_add (self->expanders, expander);
        g_ptr_array_add (self->section_rows, rows);
        g_ptr_array_add (self->activity_rows, activity_row);
        g_array_append_val (self->sections, s);
      }
  }
  g_signal_connect_swapped (visibility, "changed", G_CALLBACK (update_visibility), self);
  update_visibility (self);
}

gboolean
mg_metric_rows_get_empty (MgMetricRows *self)
{
  return self->empty;
}

static const char *
row_metric_id (MgMetricRows *self, MgMetricRow *row)
{
  MgProfile *profile = mg_metric_visibility_get_profile (self->visibility);

  return mg_profile_get_metric (profile, mg_metric_row_get_metric (row))->id;
}

static const char *
expander_title (GtkWidget *expander)
{
  return gtk_label_get_text (GTK_LABEL (gtk_expander_get_label_widget (GTK_EXPANDER (expander))));
}

/* A metric's row is shown, or the stacked row standing for it is and
 * the metric is visible in it. */
static gboolean
row_shown (MgMetricRows *self, guint s, MgMetricRow *row)
{
  GtkWidget *activity = g_ptr_array_index (self->activity_rows, s);

  if (activity == NULL)
    return gtk_widget_get_visible (GTK_WIDGET (row));
  return gtk_widget_get_visible (activity)
         && mg_metric_visibility_is_row_visible (self->visibility,
                                                 g_array_index (self->sections, guint, s),
                                                 mg_metric_row_get_metric (row));
}

char **
mg_metric_rows_dup_visible_ids (MgMetricRows *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint s = 0; s < self->expanders->len; s++)
    {
      GPtrArray *rows = g_ptr_array_index (self->section_rows, s);

      if (!gtk_widget_get_visible (g_ptr_array_index (self->expanders, s)))
        continue;
      for (guint i = 0; i < rows->len; i++)
        {
          MgMetricRow *row = g_ptr_array_index (rows, i);
          const char *id = row_metric_id (self, row);

          if (row_shown (self, s, row) && g_hash_table_add (seen, (gpointer) id))
            g_strv_builder_add (builder, id);
        }
    }
  return g_strv_builder_end (builder);
}

char **
mg_metric_rows_dup_visible_titles (MgMetricRows *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint s = 0; s < self->expanders->len; s++)
    {
      GtkWidget *expander = g_ptr_array_index (self->expanders, s);

      if (gtk_widget_get_visible (expander))
        g_strv_builder_add (builder, expander_title (expander));
    }
  return g_strv_builder_end (builder);
}

guint
mg_metric_rows_get_n_visible_rows (MgMetricRows *self)
{
  guint n = 0;

  for (guint s = 0; s < self->section_rows->len; s++)
    {
      GPtrArray *rows = g_ptr_array_index (self->section_rows, s);

      for (guint i = 0; i < rows->len; i++)
        n += row_shown (self, s, g_ptr_array_index (rows, i)) ? 1 : 0;
    }
  return n;
}

MgMetricRow *
mg_metric_rows_find_row (MgMetricRows *self, const char *metric_id)
{
  for (guint s = 0; s < self->section_rows->len; s++)
    {
      GPtrArray *rows = g_ptr_array_index (self->section_rows, s);

      for (guint i = 0; i < rows->len; i++)
        if (g_str_equal (row_metric_id (self, g_ptr_array_index (rows, i)), metric_id))
          return g_ptr_array_index (rows, i);
    }
  return NULL;
}

static GtkExpander *
find_expander (MgMetricRows *self, const char *title)
{
  for (guint s = 0; s < self->expanders->len; s++)
    {
      GtkWidget *expander = g_ptr_array_index (self->expanders, s);

      if (gtk_widget_get_visible (expander) && g_str_equal (expander_title (expander), title))
        return GTK_EXPANDER (expander);
    }
  return NULL;
}

gboolean
mg_metric_rows_set_expanded (MgMetricRows *self, const char *title, gboolean expanded)
{
  GtkExpander *expander = find_expander (self, title);

  if (expander == NULL)
    return FALSE;
  gtk_expander_set_expanded (expander, expanded);
  return TRUE;
}

gboolean
mg_metric_rows_get_expanded (MgMetricRows *self, const char *title)
{
  GtkExpander *expander = find_expander (self, title);

  return expander != NULL && gtk_expander_get_expanded (expander);
}

GPtrArray *
mg_metric_rows_dup_view_groups (MgMetricRows *self)
{
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_view_group_free);

  for (guint s = 0; s < self->expanders->len; s++)
    {
      GtkWidget *expander = g_ptr_array_index (self->expanders, s);
      GPtrArray *rows = g_ptr_array_index (self->section_rows, s);
      MgViewGroup *group;

      if (!gtk_widget_get_visible (expander))
        continue;
      group = mg_view_group_new (expander_title (expander),
                                 gtk_expander_get_expanded (GTK_EXPANDER (expander)));
      if (g_ptr_array_index (self->activity_rows, s) != NULL)
        group->activity_scope
          = mg_activity_row_get_scope (g_ptr_array_index (self->activity_rows, s));
      for (guint i = 0; i < rows->len; i++)
        {
          MgMetricRow *row = g_ptr_array_index (rows, i);
          guint metric = mg_metric_row_get_metric (row);

          if (row_shown (self, s, row))
            g_array_append_val (group->metrics, metric);
        }
      g_ptr_array_add (groups, group);
    }
  return groups;
}

static void
mg_metric_rows_dispose (GObject *object)
{
  MgMetricRows *self = MG_METRIC_ROWS (object);

  g_clear_handle_id (&self->fit_idle, g_source_remove);
  if (self->box != NULL)
    {
      clear (self);
      g_clear_pointer (&self->box, gtk_widget_unparent);
    }
  G_OBJECT_CLASS (mg_metric_rows_parent_class)->dispose (object);
}

static void
on_page_size (MgMetricRows *self)
{
  queue_fit (self);
}

/* The rows fit the scrolled window they are shown in, when there is one. */
static void
mg_metric_rows_realize (GtkWidget *widget)
{
  MgMetricRows *self = MG_METRIC_ROWS (widget);
  GtkWidget *scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);

  GTK_WIDGET_CLASS (mg_metric_rows_parent_class)->realize (widget);
  if (scroller == NULL)
    return;
  self->vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_signal_connect_swapped (self->vadjustment, "notify::page-size", G_CALLBACK (on_page_size), self);
  queue_fit (self);
}

static void
mg_metric_rows_unrealize (GtkWidget *widget)
{
  MgMetricRows *self = MG_METRIC_ROWS (widget);

  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  self->vadjustment = NULL;
  g_clear_handle_id (&self->fit_idle, g_source_remove);
  GTK_WIDGET_CLASS (mg_metric_rows_parent_class)->unrealize (widget);
}

static void
mg_metric_rows_finalize (GObject *object)
{
  MgMetricRows *self = MG_METRIC_ROWS (object);

  g_ptr_array_unref (self->expanders);
  g_ptr_array_unref (self->section_rows);
  g_ptr_array_unref (self->activity_rows);
  g_array_unref (self->sections);
  g_hash_table_unref (self->collapsed);
  G_OBJECT_CLASS (mg_metric_rows_parent_class)->finalize (object);
}

static void
mg_metric_rows_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MgMetricRows *self = MG_METRIC_ROWS (object);

  switch (prop_id)
    {
    case PROP_EMPTY:
      g_value_set_boolean (value, self->empty);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_metric_rows_class_init (MgMetricRowsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_metric_rows_dispose;
  object_class->finalize = mg_metric_rows_finalize;
  object_class->get_property = mg_metric_rows_get_property;
  widget_class->realize = mg_metric_rows_realize;
  widget_class->unrealize = mg_metric_rows_unrealize;
  properties[PROP_EMPTY] = g_param_spec_boolean ("empty", NULL, NULL, TRUE,
                                                 G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                 | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
mg_metric_rows_init (MgMetricRows *self)
{
  mg_style_load (gdk_display_get_default ());
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->expanders = g_ptr_array_new ();
  self->section_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  self->activity_rows = g_ptr_array_new ();
  self->sections = g_array_new (FALSE, FALSE, sizeof (guint));
  self->collapsed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->empty = TRUE;
  self->graph_height = GRAPH_MIN_HEIGHT;
}

GtkWidget *
mg_metric_rows_find_activity_graph (MgMetricRows *self, MgActivityScope scope)
{
  for (guint s = 0; s < self->activity_rows->len; s++)
    {
      MgActivityRow *row = g_ptr_array_index (self->activity_rows, s);

      if (row != NULL && mg_activity_row_get_scope (row) == scope)
        return mg_activity_row_get_graph (row);
    }
  return NULL;
}

GtkWidget *
mg_metric_rows_new (void)
{
  return g_object_new (MG_TYPE_METRIC_ROWS, NULL);
}
