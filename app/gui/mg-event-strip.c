/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Crash, kill and recording-stopped marks on the timeline. */
#include "mg-config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "mg-error-list.h"
#include "mg-event-strip.h"
#include "defs/mg-units.h"

#define MARK_HALF_WIDTH 6.0
#define STRIP_HEIGHT 12

struct _MgEventStrip
{
  GtkWidget parent_instance;

  MgProfile *profile;
  MgTimeView *view;
  GArray *marks;  /* guint: indices of notable events */
};

G_DEFINE_FINAL_TYPE (MgEventStrip, mg_event_strip, GTK_TYPE_WIDGET)

static double
time_to_x (MgEventStrip *self, double t, double width)
{
  double t0 = mg_time_view_get_start (self->view);
  double t1 = mg_time_view_get_end (self->view);

  return t1 > t0 ? (t - t0) / (t1 - t0) * width : 0;
}

/* Red reads as "went wrong" in light and dark themes alike; amber as a
 * warning. The shapes differ too, for whoever cannot tell the colours. */
static void
draw_mark (cairo_t *cr, MgEventMark kind, double x, double height)
{
  double h = MARK_HALF_WIDTH;

  switch (kind)
    {
    case MG_EVENT_MARK_CRASHED:
      cairo_set_source_rgb (cr, 0.88, 0.11, 0.14);
      cairo_move_to (cr, x - h, 1);
      cairo_line_to (cr, x + h, 1);
      cairo_line_to (cr, x, height - 1);
      cairo_close_path (cr);
      cairo_fill (cr);
      break;
    case MG_EVENT_MARK_KILLED:
      cairo_set_source_rgb (cr, 0.88, 0.11, 0.14);
      cairo_set_line_width (cr, 2.5);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
      cairo_move_to (cr, x - h + 1, 1.5);
      cairo_line_to (cr, x + h - 1, height - 1.5);
      cairo_move_to (cr, x + h - 1, 1.5);
      cairo_line_to (cr, x - h + 1, height - 1.5);
      cairo_stroke (cr);
      break;
    case MG_EVENT_MARK_STOPPED:
      cairo_rectangle (cr, x - h + 1, 1, 2 * h - 2, height - 2);
      cairo_set_source_rgb (cr, 0.90, 0.65, 0.04);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 0.55, 0.36, 0.0);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      break;
    case MG_EVENT_MARK_NONE:
    case MG_EVENT_MARK_N_KINDS:
    default:
      break;
    }
}

static const MgProcessEvent *
get_mark (MgEventStrip *self, guint i)
{
  return mg_profile_get_event (self->profile, g_array_index (self->marks, guint, i));
}

static void
mg_event_strip_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MgEventStrip *self = MG_EVENT_STRIP (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->marks->len == 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  for (guint i = 0; i < self->marks->len; i++)
    {
      const MgProcessEvent *event = get_mark (self, i);
      double x = time_to_x (self, event->time_s, width);

      if (x < -MARK_HALF_WIDTH || x > width + MARK_HALF_WIDTH)
        continue;
      draw_mark (cr, mg_error_list_classify_event (event), x, height);
    }
  cairo_destroy (cr);
}

/* "rank 1 crashed: signal 11 (Segmentation fault), at 0.5 s" */
static char *
describe_mark (MgEventStrip *self, const MgProcessEvent *event)
{
  g_autofree char *what = mg_error_list_describe_event (self->profile, event);
  g_autofree char *when = mg_units_format_time (event->time_s);

  /* Translators: an event on the timeline, then when it happened */
  return g_strdup_printf (_("%s, at %s"), what, when);
}

char *
mg_event_strip_describe_at (MgEventStrip *self, double x)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  g_autoptr (GString) text = g_string_new (NULL);

  g_return_val_if_fail (MG_IS_EVENT_STRIP (self), NULL);

  for (guint i = 0; i < self->marks->len; i++)
    {
      const MgProcessEvent *event = get_mark (self, i);
      g_autofree char *line = NULL;

      if (fabs (time_to_x (self, event->time_s, width) - x) > MARK_HALF_WIDTH + 1)
        continue;
      line = describe_mark (self, event);
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, line);
    }
  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer user_data)
{
  g_autofree char *text = mg_event_strip_describe_at (MG_EVENT_STRIP (widget), x);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* Every mark, for screen readers (the tooltip needs a pointer). */
static void
update_accessible_description (MgEventStrip *self)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->marks->len; i++)
    {
      g_autofree char *line = describe_mark (self, get_mark (self, i));

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, line);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text->str, -1);
}

static void
mg_event_strip_dispose (GObject *object)
{
  MgEventStrip *self = MG_EVENT_STRIP (object);

  mg_time_view_unfollow (&self->view, self);
  g_clear_object (&self->profile);
  G_OBJECT_CLASS (mg_event_strip_parent_class)->dispose (object);
}

static void
mg_event_strip_finalize (GObject *object)
{
  g_array_unref (MG_EVENT_STRIP (object)->marks);
  G_OBJECT_CLASS (mg_event_strip_parent_class)->finalize (object);
}

static void
mg_event_strip_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                        int *minimum, int *natural, int *minimum_baseline,
                        int *natural_baseline)
{
  MgEventStrip *self = MG_EVENT_STRIP (widget);
  int size = orientation == GTK_ORIENTATION_VERTICAL && self->marks->len > 0 ? STRIP_HEIGHT : 0;

  *minimum = *natural = size;
}

static void
mg_event_strip_class_init (MgEventStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_event_strip_dispose;
  object_class->finalize = mg_event_strip_finalize;
  widget_class->snapshot = mg_event_strip_snapshot;
  widget_class->measure = mg_event_strip_measure;
  gtk_widget_class_set_css_name (widget_class, "eventstrip");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
mg_event_strip_init (MgEventStrip *self)
{
  self->marks = g_array_new (FALSE, FALSE, sizeof (guint));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Process events"), -1);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
}

GtkWidget *
mg_event_strip_new (MgProfile *profile, MgTimeView *view)
{
  MgEventStrip *self = g_object_new (MG_TYPE_EVENT_STRIP, NULL);

  self->profile = g_object_ref (profile);
  self->view = g_object_ref (view);
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    if (mg_error_list_is_notable_event (mg_profile_get_event (profile, i)))
      g_array_append_val (self->marks, i);
  update_accessible_description (self);
  g_signal_connect_swapped (view, "notify::start", G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_connect_swapped (view, "notify::end", G_CALLBACK (gtk_widget_queue_draw), self);
  return GTK_WIDGET (self);
}

guint
mg_event_strip_get_n_marks (MgEventStrip *self)
{
  g_return_val_if_fail (MG_IS_EVENT_STRIP (self), 0);
  return self->marks->len;
}

guint
mg_event_strip_count_marks (MgEventStrip *self, MgEventMark kind)
{
  guint n = 0;

  g_return_val_if_fail (MG_IS_EVENT_STRIP (self), 0);
  for (guint i = 0; i < self->marks->len; i++)
    n += mg_error_list_classify_event (get_mark (self, i)) == kind;
  return n;
}
