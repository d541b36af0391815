/* Crash and kill marks on the timeline. */
#include "mg-config.h"

#include <math.h>

#include "mg-error-list.h"
#include "mg-event-strip.h"

#define MARK_HALF_WIDTH 5.0

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
  /* Red reads as "went wrong" in light and dark themes alike. */
  cairo_set_source_rgb (cr, 0.88, 0.11, 0.14);
  for (guint i = 0; i < self->marks->len; i++)
    {
      const MgProcessEvent *event =
        mg_profile_get_event (self->profile, g_array_index (self->marks, guint, i));
      double x = time_to_x (self, event->time_s, width);

      if (x < -MARK_HALF_WIDTH || x > width + MARK_HALF_WIDTH)
        continue;
      cairo_move_to (cr, x - MARK_HALF_WIDTH, 1);
      cairo_line_to (cr, x + MARK_HALF_WIDTH, 1);
      cairo_line_to (cr, x, height - 1);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  cairo_destroy (cr);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer user_data)
{
  MgEventStrip *self = MG_EVENT_STRIP (widget);
  double width = gtk_widget_get_width (widget);
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->marks->len; i++)
    {
      const MgProcessEvent *event =
        mg_profile_get_event (self->profile, g_array_index (self->marks, guint, i));
      g_autofree char *line = NULL;

      if (fabs (time_to_x (self, event->time_s, width) - x) > MARK_HALF_WIDTH + 1)
        continue;
      line = mg_error_list_describe_event (self->profile, event);
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, line);
    }
  if (text->len == 0)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

static void
mg_event_strip_dispose (GObject *object)
{
  MgEventStrip *self = MG_EVENT_STRIP (object);

  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  g_clear_object (&self->view);
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
  int size = orientation == GTK_ORIENTATION_VERTICAL && self->marks->len > 0 ? 10 : 0;

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
}

static void
mg_event_strip_init (MgEventStrip *self)
{
  self->marks = g_array_new (FALSE, FALSE, sizeof (guint));
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
  g_signal_connect_swapped (view, "notify::start", G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_connect_swapped (view, "notify::end", G_CALLBACK (gtk_widget_queue_draw), self);
  return GTK_WIDGET (self);
}

guint
mg_event_strip_get_n_marks (MgEventStrip *self)
{
  return self->marks->len;
}
