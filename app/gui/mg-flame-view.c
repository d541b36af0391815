/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-flame-view.h"
#include "gui/graph/mg-theme.h"
#include "plot/mg-flame-graph.h"

#define ROW_HEIGHT 20

struct _MgFlameView
{
  GtkWidget parent_instance;
  MgCodeTree *tree;
  guint focus;
  GArray *boxes;   /* laid out for the width they were drawn at */
  GBytes *matches; /* a search's functions by namer id, or NULL */
  int laid_width;
};

G_DEFINE_FINAL_TYPE (MgFlameView, mg_flame_view, GTK_TYPE_WIDGET)

enum {
  SIGNAL_FUNCTION_SELECTED,
  SIGNAL_FUNCTION_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The function of box i, NULL for the root's. */
static const char *
box_function (MgFlameView *self, guint i)
{
  const MgCallFunction *f = mg_call_tree_get_node (
    mg_code_tree_get (self->tree), MG_CALL_TREE_TOP_DOWN,
    g_array_index (self->boxes, MgFlameBox, i).node, NULL, NULL);
  return f ? f->name : NULL;
}

static void
relayout (MgFlameView *self, int width)
{
  g_clear_pointer (&self->boxes, g_array_unref);
  self->laid_width = width;
  if (self->tree == NULL)
    return;
  /* Boxes under one pixel are not drawn. */
  self->boxes = mg_flame_layout (mg_code_tree_get (self->tree), self->focus,
                                 1.0 / MAX (width, 1));
}

/* As tall as the rows of boxes of 0.1 % or more (not while drawing: a
 * size asked then would wait for the next frame). */
static void
update_height (MgFlameView *self)
{
  guint rows = 0;

  if (self->tree != NULL)
    {
      g_autoptr (GArray) boxes = mg_flame_layout (mg_code_tree_get (self->tree), self->focus,
                                                  0.001);
      for (guint i = 0; i < boxes->len; i++)
        rows = MAX (rows, g_array_index (boxes, MgFlameBox, i).depth + 1);
    }
  gtk_widget_set_size_request (GTK_WIDGET (self), -1, (int) rows * ROW_HEIGHT);
}

static void
ensure_layout (MgFlameView *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  if (self->boxes == NULL || width != self->laid_width)
    relayout (self, width);
}

static void
mg_flame_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MgFlameView *self = MG_FLAME_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  ensure_layout (self);
  if (self->boxes == NULL || width <= 0 || height <= 0)
    return;
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  /* Translators: the flame graph's top box: every sample of the range */
  gsize n_matches = 0;
  const guint8 *matches = self->matches ? g_bytes_get_data (self->matches, &n_matches) : NULL;
  mg_flame_render_matches (cr, mg_code_tree_get (self->tree), self->boxes, width, ROW_HEIGHT,
                           mg_theme_is_dark (widget), _("All"), matches, (guint) n_matches);
  cairo_destroy (cr);
}

static int
box_at (MgFlameView *self, double x, double y)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));

  ensure_layout (self);
  if (self->boxes == NULL || width <= 0 || y < 0)
    return -1;
  return mg_flame_hit (self->boxes, x / width, (guint) (y / ROW_HEIGHT));
}

void
mg_flame_view_click (MgFlameView *self, double x, double y)
{
  int i = box_at (self, x, y);

  if (i < 0)
    return;
  g_autofree char *name = g_strdup (box_function (self, (guint) i));
  self->focus = g_array_index (self->boxes, MgFlameBox, i).node;
  relayout (self, gtk_widget_get_width (GTK_WIDGET (self)));
  update_height (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_FUNCTION_SELECTED], 0, name);
}

void
mg_flame_view_double_click (MgFlameView *self, double x, double y)
{
  int i = box_at (self, x, y);
  const char *name = i < 0 ? NULL : box_function (self, (guint) i);

  if (name != NULL)
    g_signal_emit (self, signals[SIGNAL_FUNCTION_ACTIVATED], 0, name);
}

static void
on_pressed (GtkGestureClick *gesture, int n_press, double x, double y, MgFlameView *self)
{
  /* The first press zoomed: the second opens the same box. */
  if (n_press == 2)
    mg_flame_view_double_click (self, x, y);
  else
    mg_flame_view_click (self, x, y);
}

char *
mg_flame_view_dup_tooltip (MgFlameView *self, double x, double y)
{
  int i = box_at (self, x, y);
  guint64 self_samples, total;

  if (i < 0)
    return NULL;
  const MgCallTree *tree = mg_code_tree_get (self->tree);
  const MgCallFunction *f = mg_call_tree_get_node (tree, MG_CALL_TREE_TOP_DOWN,
                                                   g_array_index (self->boxes, MgFlameBox, i).node,
                                                   &self_samples, &total);
  double all = (double) MAX (mg_call_tree_get_total (tree), 1);
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, total);
  return g_strdup_printf (
    /* Translators: the flame graph's tooltip: function; total %, its samples; self % */
    _("%s\nTotal %.1f %% (%s samples), self %.1f %%"), f ? f->name : _("All"),
    100.0 * (double) total / all, count, 100.0 * (double) self_samples / all);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  g_autofree char *text = mg_flame_view_dup_tooltip (MG_FLAME_VIEW (widget), x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
mg_flame_view_set_tree (MgFlameView *self, MgCodeTree *tree)
{
  g_clear_pointer (&self->tree, mg_code_tree_unref);
  self->tree = tree ? mg_code_tree_ref (tree) : NULL;
  self->focus = MG_CALL_TREE_ROOT;
  relayout (self, gtk_widget_get_width (GTK_WIDGET (self)));
  update_height (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
mg_flame_view_set_matches (MgFlameView *self, GBytes *matches)
{
  g_clear_pointer (&self->matches, g_bytes_unref);
  self->matches = matches ? g_bytes_ref (matches) : NULL;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
mg_flame_view_count_matched_boxes (MgFlameView *self)
{
  gsize n_matches = 0;
  const guint8 *matches = self->matches ? g_bytes_get_data (self->matches, &n_matches) : NULL;
  guint found = 0;

  ensure_layout (self);
  for (guint i = 0; matches && self->boxes && i < self->boxes->len; i++)
    {
      const MgCallFunction *f = mg_call_tree_get_node (
        mg_code_tree_get (self->tree), MG_CALL_TREE_TOP_DOWN,
        g_array_index (self->boxes, MgFlameBox, i).node, NULL, NULL);
      found += f && f->id < n_matches && matches[f->id];
    }
  return found;
}

guint
mg_flame_view_get_focus (MgFlameView *self)
{
  return self->focus;
}

const GArray *
mg_flame_view_get_boxes (MgFlameView *self)
{
  ensure_layout (self);
  return self->boxes;
}

static void
mg_flame_view_finalize (GObject *object)
{
  MgFlameView *self = MG_FLAME_VIEW (object);

  g_clear_pointer (&self->tree, mg_code_tree_unref);
  g_clear_pointer (&self->boxes, g_array_unref);
  g_clear_pointer (&self->matches, g_bytes_unref);
  G_OBJECT_CLASS (mg_flame_view_parent_class)->finalize (object);
}

static void
mg_flame_view_class_init (MgFlameViewClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mg_flame_view_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = mg_flame_view_snapshot;
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_IMG);
  /* The function of a box clicked (NULL: the root's, "All"). */
  signals[SIGNAL_FUNCTION_SELECTED] = g_signal_new (
    "function-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
    G_TYPE_NONE, 1, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  /* The function of a box double-clicked. */
  signals[SIGNAL_FUNCTION_ACTIVATED] = g_signal_new (
    "function-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
    G_TYPE_NONE, 1, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
mg_flame_view_init (MgFlameView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  gtk_widget_set_valign (GTK_WIDGET (self), GTK_ALIGN_START);
  mg_theme_follow (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Flame Graph"), -1);
}

GtkWidget *
mg_flame_view_new (void)
{
  return g_object_new (MG_TYPE_FLAME_VIEW, NULL);
}
