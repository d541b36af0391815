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
  guint selected;  /* the box the keys move, a node; G_MAXUINT: none */
  int laid_width;
  MgFlameOrientation orientation;
  MgFlameColouring colouring;
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

/* The box of NODE among those drawn, or -1. */
static int
find_box (MgFlameView *self, guint node)
{
  for (guint i = 0; self->boxes && node != G_MAXUINT && i < self->boxes->len; i++)
    if (g_array_index (self->boxes, MgFlameBox, i).node == node)
      return (int) i;
  return -1;
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
  MgFlameStyle style = { width, height, ROW_HEIGHT, self->orientation, self->colouring,
                         mg_theme_is_dark (widget), _("All"), matches, (guint) n_matches };
  mg_flame_draw (cr, mg_code_tree_get (self->tree), self->boxes, &style);
  int selected = find_box (self, self->selected);
  if (selected >= 0)
    {
      /* The keyboard's box: outlined in the theme's text colour. */
      const MgFlameBox *b = &g_array_index (self->boxes, MgFlameBox, selected);
      double x = floor (b->x0 * width), w = MAX (2, floor (b->x1 * width) - x);
      double ink = mg_theme_is_dark (widget) ? 1 : 0;
      cairo_set_source_rgb (cr, ink, ink, ink);
      cairo_set_line_width (cr, 2);
      double y = mg_flame_row_top (b->depth, self->orientation, height, ROW_HEIGHT);
      cairo_rectangle (cr, x + 1, y + 1, w - 3, ROW_HEIGHT - 3);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
}

static int
box_at (MgFlameView *self, double x, double y)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int row = mg_flame_row_at (y, self->orientation, gtk_widget_get_height (GTK_WIDGET (self)),
                             ROW_HEIGHT);

  ensure_layout (self);
  if (self->boxes == NULL || width <= 0 || row < 0)
    return -1;
  return mg_flame_hit (self->boxes, x / width, (guint) row);
}

static char *dup_box_text (MgFlameView *self, guint i);

/* What a screen reader says of the graph: the keyboard's box. */
static void
update_description (MgFlameView *self)
{
  int i = find_box (self, self->selected);
  g_autofree char *text = i >= 0 ? dup_box_text (self, (guint) i) : NULL;

  if (text)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                    text, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

void
mg_flame_view_click (MgFlameView *self, double x, double y)
{
  int i = box_at (self, x, y);

  if (i < 0)
    return;
  g_autofree char *name = g_strdup (box_function (self, (guint) i));
  self->focus = g_array_index (self->boxes, MgFlameBox, i).node;
  self->selected = self->focus;
  update_description (self);
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
  gtk_widget_grab_focus (GTK_WIDGET (self));
  /* The first press zoomed: the second opens the same box. */
  if (n_press == 2)
    mg_flame_view_double_click (self, x, y);
  else
    mg_flame_view_click (self, x, y);
}

static char *
dup_box_text (MgFlameView *self, guint i)
{
  guint64 self_samples, total;
  const MgCallTree *tree = mg_code_tree_get (self->tree);
  const MgCallFunction *f = mg_call_tree_get_node (tree, MG_CALL_TREE_TOP_DOWN,
                                                   g_array_index (self->boxes, MgFlameBox, i).node,
                                                   &self_samples, &total);
  double all = (double) MAX (mg_call_tree_get_total (tree), 1);
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, total);
  g_autofree char *text = g_strdup_printf (
    /* Translators: the flame graph's tooltip: function; total %, its samples; self % */
    _("%s\nTotal %.1f %% (%s samples), self %.1f %%"), f ? f->name : _("All"),
    100.0 * (double) total / all, count, 100.0 * (double) self_samples / all);
  if (self->colouring != MG_FLAME_BY_ACTIVITY)
    return g_steal_pointer (&text);
  /* Coloured by activity: what the colour stands for. */
  double waiting = (double) mg_call_tree_get_waiting (tree, MG_CALL_TREE_TOP_DOWN,
                                                      g_array_index (self->boxes, MgFlameBox, i).node)
                   / (double) MAX (total, 1);
  return g_strdup_printf (
    /* Translators: the flame graph's tooltip coloured by activity: the box's samples
     * computing (green) and waiting in MPI (blue) */
    _("%s\nComputing %.1f %%, waiting in MPI %.1f %%"), text, 100.0 * (1 - waiting),
    100.0 * waiting);
}

char *
mg_flame_view_dup_tooltip (MgFlameView *self, double x, double y)
{
  int i = box_at (self, x, y);

  return i < 0 ? NULL : dup_box_text (self, (guint) i);
}

/* The keys: a box selected, its function told. */
static void
select_box (MgFlameView *self, int i)
{
  if (i < 0)
    return;
  self->selected = g_array_index (self->boxes, MgFlameBox, i).node;
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_FUNCTION_SELECTED], 0, box_function (self, (guint) i));
}

/* The box beside box i in its row: the nearest left (-1) or right (+1). */
static int
beside (MgFlameView *self, guint i, int direction)
{
  const MgFlameBox *b = &g_array_index (self->boxes, MgFlameBox, i);
  int best = -1;

  for (guint j = 0; j < self->boxes->len; j++)
    {
      const MgFlameBox *o = &g_array_index (self->boxes, MgFlameBox, j);
      if (o->depth != b->depth || j == i || (direction < 0 ? o->x0 >= b->x0 : o->x0 <= b->x0))
        continue;
      if (best < 0 || (direction < 0) == (o->x0 > g_array_index (self->boxes, MgFlameBox, best).x0))
        best = (int) j;
    }
  return best;
}

/* The widest box drawn under box i (its children come largest first). */
static int
below (MgFlameView *self, guint i)
{
  guint node = g_array_index (self->boxes, MgFlameBox, i).node;

  for (guint j = i + 1; j < self->boxes->len; j++)
    if (mg_call_tree_get_parent (mg_code_tree_get (self->tree), MG_CALL_TREE_TOP_DOWN,
                                 g_array_index (self->boxes, MgFlameBox, j).node) == node)
      return (int) j;
  return -1;
}

static void
zoom_to (MgFlameView *self, guint node)
{
  self->focus = node;
  relayout (self, gtk_widget_get_width (GTK_WIDGET (self)));
  update_height (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
key_activated (GtkWidget *widget, const char *action, GVariant *parameter)
{
  MgFlameView *self = MG_FLAME_VIEW (widget);
  int i;

  ensure_layout (self);
  if (self->boxes == NULL || self->boxes->len == 0)
    return;
  i = find_box (self, self->selected);
  /* Up and Down go where the arrow points: a flame has the callers below. */
  if (self->orientation == MG_FLAME_FLAME && g_str_equal (action, "flame.up"))
    action = "flame.down";
  else if (self->orientation == MG_FLAME_FLAME && g_str_equal (action, "flame.down"))
    action = "flame.up";
  /* The first key selects the zoomed box. */
  if (i < 0)
    {
      select_box (self, find_box (self, self->focus));
      return;
    }
  if (g_str_equal (action, "flame.up"))
    select_box (self, find_box (self, mg_call_tree_get_parent (mg_code_tree_get (self->tree),
                                                               MG_CALL_TREE_TOP_DOWN,
                                                               self->selected)));
  else if (g_str_equal (action, "flame.down"))
    select_box (self, below (self, (guint) i));
  else if (g_str_equal (action, "flame.previous"))
    select_box (self, beside (self, (guint) i, -1));
  else if (g_str_equal (action, "flame.next"))
    select_box (self, beside (self, (guint) i, +1));
  /* As a click and a double-click: the first Enter zooms to the box,
   * the second opens it (the Code pane shows its source). */
  else if (g_str_equal (action, "flame.zoom") && self->focus != self->selected)
    zoom_to (self, self->selected);
  else if (g_str_equal (action, "flame.zoom"))
    {
      const char *name = box_function (self, (guint) i);
      if (name)
        g_signal_emit (self, signals[SIGNAL_FUNCTION_ACTIVATED], 0, name);
    }
  else if (g_str_equal (action, "flame.zoom-out") && self->focus != MG_CALL_TREE_ROOT)
    zoom_to (self, mg_call_tree_get_parent (mg_code_tree_get (self->tree), MG_CALL_TREE_TOP_DOWN,
                                            self->focus));
}

void
mg_flame_view_set_orientation (MgFlameView *self, MgFlameOrientation orientation)
{
  self->orientation = orientation;
  /* A flame stands on the bottom of the pane, an icicle hangs from its top. */
  gtk_widget_set_valign (GTK_WIDGET (self),
                         orientation == MG_FLAME_FLAME ? GTK_ALIGN_END : GTK_ALIGN_START);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

MgFlameOrientation
mg_flame_view_get_orientation (MgFlameView *self)
{
  return self->orientation;
}

void
mg_flame_view_set_colouring (MgFlameView *self, MgFlameColouring colouring)
{
  self->colouring = colouring;
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

MgFlameColouring
mg_flame_view_get_colouring (MgFlameView *self)
{
  return self->colouring;
}

guint
mg_flame_view_get_selected (MgFlameView *self)
{
  return self->selected;
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
  self->selected = G_MAXUINT;
  update_description (self);
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
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const struct {
    const char *action;
    guint keys[2];
  } keys[] = {
    { "flame.up", { GDK_KEY_Up, GDK_KEY_KP_Up } },
    { "flame.down", { GDK_KEY_Down, GDK_KEY_KP_Down } },
    { "flame.previous", { GDK_KEY_Left, GDK_KEY_KP_Left } },
    { "flame.next", { GDK_KEY_Right, GDK_KEY_KP_Right } },
    { "flame.zoom", { GDK_KEY_Return, GDK_KEY_KP_Enter } },
    { "flame.zoom-out", { GDK_KEY_Escape, GDK_KEY_BackSpace } },
  };
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      gtk_widget_class_install_action (widget_class, keys[k].action, NULL, key_activated);
      for (guint j = 0; j < 2; j++)
        gtk_widget_class_add_binding_action (widget_class, keys[k].keys[j], 0, keys[k].action,
                                             NULL);
    }
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
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
  self->selected = G_MAXUINT;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  mg_theme_follow (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Flame Graph"), -1);
}

GtkWidget *
mg_flame_view_new (void)
{
  return g_object_new (MG_TYPE_FLAME_VIEW, NULL);
}
