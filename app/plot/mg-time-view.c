/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The view state shared by every graph row. */
#include "mg-config.h"

#include "mg-time-view.h"

#include <glib/gi18n.h>
#include <math.h>

#include "defs/mg-units.h"

/* The narrowest visible range, as a fraction of the run: zooming further
 * shows nothing new and makes the arithmetic meaningless. */
#define MIN_SPAN_FRACTION 1e-6

struct _MgTimeView {
  GObject parent_instance;

  double duration;
  double start, end;
  gboolean has_selection;
  double selection_start, selection_end;
  double hover_time;
  int process;
  gboolean auto_zoom_vertical;
  GArray *history; /* of double pairs (start, end) */
};

G_DEFINE_FINAL_TYPE (MgTimeView, mg_time_view, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DURATION,
  PROP_START,
  PROP_END,
  PROP_HAS_SELECTION,
  PROP_SELECTION_START,
  PROP_SELECTION_END,
  PROP_HOVER_TIME,
  PROP_PROCESS,
  PROP_AUTO_ZOOM_VERTICAL,
  PROP_CAN_ZOOM_OUT,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

typedef struct {
  double start, end;
} Range;

static double
min_span (MgTimeView *self)
{
  return self->duration > 0 ? self->duration * MIN_SPAN_FRACTION : 1e-9;
}

static void
set_range_internal (MgTimeView *self, double start, double end)
{
  double span = end - start;
  double duration = self->duration;

  if (!isfinite (start) || !isfinite (end))
    return;
  if (span < min_span (self))
    {
      double mid = (start + end) / 2;
      span = min_span (self);
      start = mid - span / 2;
      end = mid + span / 2;
    }
  if (span >= duration)
    {
      start = 0;
      end = duration;
    }
  else if (start < 0)
    {
      start = 0;
      end = span;
    }
  else if (end > duration)
    {
      end = duration;
      start = duration - span;
    }

  g_object_freeze_notify (G_OBJECT (self));
  if (start != self->start)
    {
      self->start = start;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_START]);
    }
  if (end != self->end)
    {
      self->end = end;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_END]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

static void
notify_can_zoom_out (MgTimeView *self, gboolean before)
{
  if (before != mg_time_view_can_zoom_out (self))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CAN_ZOOM_OUT]);
}

static void
mg_time_view_finalize (GObject *object)
{
  MgTimeView *self = MG_TIME_VIEW (object);

  g_array_unref (self->history);
  G_OBJECT_CLASS (mg_time_view_parent_class)->finalize (object);
}

static void
mg_time_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MgTimeView *self = MG_TIME_VIEW (object);

  switch (prop_id)
    {
    case PROP_DURATION: g_value_set_double (value, self->duration); break;
    case PROP_START: g_value_set_double (value, self->start); break;
    case PROP_END: g_value_set_double (value, self->end); break;
    case PROP_HAS_SELECTION: g_value_set_boolean (value, self->has_selection); break;
    case PROP_SELECTION_START: g_value_set_double (value, self->selection_start); break;
    case PROP_SELECTION_END: g_value_set_double (value, self->selection_end); break;
    case PROP_HOVER_TIME: g_value_set_double (value, self->hover_time); break;
    case PROP_PROCESS: g_value_set_int (value, self->process); break;
    case PROP_AUTO_ZOOM_VERTICAL: g_value_set_boolean (value, self->auto_zoom_vertical); break;
    case PROP_CAN_ZOOM_OUT: g_value_set_boolean (value, mg_time_view_can_zoom_out (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_time_view_set_property (GObject *object, guint prop_id, const GValue *value,
                           GParamSpec *pspec)
{
  MgTimeView *self = MG_TIME_VIEW (object);

  switch (prop_id)
    {
    case PROP_DURATION: mg_time_view_set_duration (self, g_value_get_double (value)); break;
    case PROP_START:
      mg_time_view_set_range (self, g_value_get_double (value), self->end);
      break;
    case PROP_END:
      mg_time_view_set_range (self, self->start, g_value_get_double (value));
      break;
    case PROP_SELECTION_START:
      mg_time_view_set_selection (self, g_value_get_double (value),
                                  self->has_selection ? self->selection_end : g_value_get_double (value));
      break;
    case PROP_SELECTION_END:
      mg_time_view_set_selection (self,
                                  self->has_selection ? self->selection_start : g_value_get_double (value),
                                  g_value_get_double (value));
      break;
    case PROP_HOVER_TIME: mg_time_view_set_hover_time (self, g_value_get_double (value)); break;
    case PROP_PROCESS: mg_time_view_set_process (self, g_value_get_int (value)); break;
    case PROP_AUTO_ZOOM_VERTICAL:
      mg_time_view_set_auto_zoom_vertical (self, g_value_get_boolean (value));
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_time_view_class_init (MgTimeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = mg_time_view_finalize;
  object_class->get_property = mg_time_view_get_property;
  object_class->set_property = mg_time_view_set_property;

  props[PROP_DURATION] = g_param_spec_double ("duration", NULL, NULL, 0, G_MAXDOUBLE, 0, rw);
  props[PROP_START] = g_param_spec_double ("start", NULL, NULL, 0, G_MAXDOUBLE, 0, rw);
  props[PROP_END] = g_param_spec_double ("end", NULL, NULL, 0, G_MAXDOUBLE, 0, rw);
  props[PROP_HAS_SELECTION] = g_param_spec_boolean ("has-selection", NULL, NULL, FALSE, ro);
  props[PROP_SELECTION_START] = g_param_spec_double ("selection-start", NULL, NULL,
                                                     0, G_MAXDOUBLE, 0, rw);
  props[PROP_SELECTION_END] = g_param_spec_double ("selection-end", NULL, NULL,
                                                   0, G_MAXDOUBLE, 0, rw);
  props[PROP_HOVER_TIME] = g_param_spec_double ("hover-time", NULL, NULL,
                                                -1, G_MAXDOUBLE, -1, rw);
  props[PROP_PROCESS] = g_param_spec_int ("process", NULL, NULL, -1, G_MAXINT, -1, rw);
  props[PROP_AUTO_ZOOM_VERTICAL] = g_param_spec_boolean ("auto-zoom-vertical", NULL, NULL,
                                                         FALSE, rw);
  props[PROP_CAN_ZOOM_OUT] = g_param_spec_boolean ("can-zoom-out", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
mg_time_view_init (MgTimeView *self)
{
  self->hover_time = -1;
  self->process = -1;
  self->history = g_array_new (FALSE, FALSE, sizeof (Range));
}

MgTimeView *
mg_time_view_new (double duration)
{
  return g_object_new (MG_TYPE_TIME_VIEW, "duration", duration, NULL);
}

double
mg_time_view_get_duration (MgTimeView *self)
{
  g_return_val_if_fail (MG_IS_TIME_VIEW (self), 0);
  return self->duration;
}

void
mg_time_view_set_duration (MgTimeView *self, double duration)
{
  g_return_if_fail (MG_IS_TIME_VIEW (self));

  if (!isfinite (duration) || duration < 0)
    duration = 0;
  if (duration == self->duration)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  self->duration = duration;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DURATION]);
  mg_time_view_reset (self);
  g_object_thaw_notify (G_OBJECT (self));
}

double
mg_time_view_get_start (MgTimeView *self)
{
  g_return_val_if_fail (MG_IS_TIME_VIEW (self), 0);
  return self->start;
}

double
mg_time_view_get_end (MgTimeView *self)
{
  g_return_val_if_fail (MG_IS_TIME_VIEW (self), 0);
  return self->end;
}

void
mg_time_view_set_range (MgTimeView *self, double start, double end)
{
  g_return_if_fail (MG_IS_TIME_VIEW (self));
  if (end < start)
    {
      double tmp = start;
      start = end;
      end = tmp;
    }
  set_range_internal (self, start, end);
}

gboolean
mg_time_view_get_has_selection (MgTimeView *self)
{
  g_return_val_if_fail (MG_IS_TIME_VIEW (self), FALSE);
  return self->has_selection;
}

double
mg_time_view_get_selection_start (MgTimeView *self)
{
  g_return_val_if_fail (MG_IS_TIME_VIEW (self), 0);
  return self->selection_start;
}

double
mg_time_view_get_selection_end (MgTimeView *self)
{
  g_return_val_if_fail (MG_IS_TIME_VIEW (self), 0);
  return self->selection_end;
}

void
mg_time_view_set_selection (MgTimeView *self, double t0, double t1)
{
  g_return_if_fail (MG_IS_TIME_VIEW (self));

  if (!isfinite (t0) || !isfinite (t1))
    return;
  if (t1 < t0)
    {
      double tmp = t0;
      t0 = t1;
      t1 = tmp;
    }
  t0 = CLAMP (t0, 0, self->duration);
  t1 = CLAMP (t1, 0, self->duration);

  g_object_freeze_notify (G_OBJECT (self));
  if (!self->has_selection)
    {
      self->has_selection = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_HAS_SELECTION]);
    }
  if (t0 != self->selection_start)
    {
      self->selection_start = t0;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTION_START]);
    }
  if (t1 != self->selection_end)
    {
      self->selection_end = t1;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTION_END]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

void
mg_time_view_clear_selection (MgTimeView *self)
{
  g_return_if_fail (MG_IS_TIME_VIEW (self));

  if (!self->has_selection)
    return;
  self->has_selection = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_HAS_SELECTION]);
}

double
mg_time_view_get_hover_time (MgTimeView *self)
{
  g_return_val_if_fail (MG_IS_TIME_VIEW (self), -1);
  return self->hover_time;
}

void
mg_time_view_set_hover_time (MgTimeView *self, double t)
{
  g_return_if_fail (MG_IS_TIME_VIEW (self));

  if (!isfinite (t) || t < 0)
    t = -1;
  if (t > self->duration)
    t = self->duration;
  if (t == self->hover_time)
    return;
  self->hover_time = t;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_HOVER_TIME]);
}

int
mg_time_view_get_process (MgTimeView *self)
{
  g_return_val_if_fail (MG_IS_TIME_VIEW (self), -1);
  return self->process;
}

void
mg_time_view_set_process (MgTimeView *self, int process)
{
  g_return_if_fail (MG_IS_TIME_VIEW (self));

  if (process < -1)
    process = -1;
  if (process == self->process)
    return;
  self->process = process;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PROCESS]);
}

gboolean
mg_time_view_get_auto_zoom_vertical (MgTimeView *self)
{
  g_return_val_if_fail (MG_IS_TIME_VIEW (self), FALSE);
  return self->auto_zoom_vertical;
}

void
mg_time_view_set_auto_zoom_vertical (MgTimeView *self, gboolean auto_zoom)
{
  g_return_if_fail (MG_IS_TIME_VIEW (self));

  auto_zoom = !!auto_zoom;
  if (auto_zoom == self->auto_zoom_vertical)
    return;
  self->auto_zoom_vertical = auto_zoom;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_AUTO_ZOOM_VERTICAL]);
}

void
mg_time_view_zoom_to_selection (MgTimeView *self)
{
  Range current;
  gboolean before;

  g_return_if_fail (MG_IS_TIME_VIEW (self));

  if (!self->has_selection || self->selection_end <= self->selection_start)
    return;
  before = mg_time_view_can_zoom_out (self);
  current.start = self->start;
  current.end = self->end;
  g_array_append_val (self->history, current);
  g_object_freeze_notify (G_OBJECT (self));
  set_range_internal (self, self->selection_start, self->selection_end);
  notify_can_zoom_out (self, before);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
mg_time_view_can_zoom_out (MgTimeView *self)
{
  g_return_val_if_fail (MG_IS_TIME_VIEW (self), FALSE);
  return self->history->len > 0 || self->start > 0 || self->end < self->duration;
}

void
mg_time_view_zoom_out (MgTimeView *self)
{
  gboolean before;

  g_return_if_fail (MG_IS_TIME_VIEW (self));

  before = mg_time_view_can_zoom_out (self);
  g_object_freeze_notify (G_OBJECT (self));
  if (self->history->len > 0)
    {
      Range previous = g_array_index (self->history, Range, self->history->len - 1);
      g_array_set_size (self->history, self->history->len - 1);
      set_range_internal (self, previous.start, previous.end);
    }
  else
    {
      double mid = (self->start + self->end) / 2;
      double span = (self->end - self->start) * 2;
      set_range_internal (self, mid - span / 2, mid + span / 2);
    }
  notify_can_zoom_out (self, before);
  g_object_thaw_notify (G_OBJECT (self));
}

void
mg_time_view_reset (MgTimeView *self)
{
  gboolean before;

  g_return_if_fail (MG_IS_TIME_VIEW (self));

  before = mg_time_view_can_zoom_out (self);
  g_object_freeze_notify (G_OBJECT (self));
  g_array_set_size (self->history, 0);
  mg_time_view_clear_selection (self);
  set_range_internal (self, 0, self->duration);
  notify_can_zoom_out (self, before);
  g_object_thaw_notify (G_OBJECT (self));
}

void
mg_time_view_zoom_around (MgTimeView *self, double t, double factor)
{
  gboolean before;

  g_return_if_fail (MG_IS_TIME_VIEW (self));

  if (!isfinite (factor) || factor <= 0 || !isfinite (t))
    return;
  t = CLAMP (t, self->start, self->end);
  before = mg_time_view_can_zoom_out (self);
  g_object_freeze_notify (G_OBJECT (self));
  set_range_internal (self, t - (t - self->start) * factor, t + (self->end - t) * factor);
  notify_can_zoom_out (self, before);
  g_object_thaw_notify (G_OBJECT (self));
}

void
mg_time_view_pan (MgTimeView *self, double dt)
{
  double span;

  g_return_if_fail (MG_IS_TIME_VIEW (self));

  if (!isfinite (dt))
    return;
  span = self->end - self->start;
  /* Clamp here rather than in set_range_internal so the span never shrinks
   * against an edge. */
  if (self->start + dt < 0)
    dt = -self->start;
  if (self->end + dt > self->duration)
    dt = self->duration - self->end;
  set_range_internal (self, self->start + dt, self->start + dt + span);
}

MgFiguresRange
mg_time_view_get_figures_range (MgTimeView *self, double *t0, double *t1)
{
  g_return_val_if_fail (MG_IS_TIME_VIEW (self), MG_FIGURES_RANGE_RUN);

  if (self->has_selection && self->selection_end > self->selection_start)
    {
      *t0 = self->selection_start;
      *t1 = self->selection_end;
      return MG_FIGURES_RANGE_SELECTION;
    }
  *t0 = self->start;
  *t1 = self->end;
  /* Zoomed in: either end is off the run's. */
  if (self->start > 0 || self->end < self->duration * (1 - MIN_SPAN_FRACTION))
    return MG_FIGURES_RANGE_VISIBLE;
  *t0 = 0;
  *t1 = self->duration;
  return MG_FIGURES_RANGE_RUN;
}

char *
mg_time_view_describe_figures_range (MgTimeView *self)
{
  double t0, t1;
  MgFiguresRange range = mg_time_view_get_figures_range (self, &t0, &t1);
  g_autofree char *start = mg_units_format_time (t0);
  g_autofree char *end = mg_units_format_time (t1);
  g_autofree char *length = mg_units_format_time (t1 - t0);

  switch (range)
    {
    case MG_FIGURES_RANGE_SELECTION:
      /* Translators: what the figures describe: start, end and length of the selection */
      return g_strdup_printf (_("Figures of the selection: %s to %s (%s)"), start, end, length);
    case MG_FIGURES_RANGE_VISIBLE:
      /* Translators: what the figures describe: start, end and length of the visible range */
      return g_strdup_printf (_("Figures of the visible range: %s to %s (%s)"), start, end, length);
    case MG_FIGURES_RANGE_RUN:
    default:
      /* Translators: what the figures describe: start, end and length of the run */
      return g_strdup_printf (_("Figures of the whole run: %s to %s (%s)"), start, end, length);
    }
}

gboolean
mg_time_view_follow (MgTimeView **slot, MgTimeView *view, gpointer owner, GCallback on_notify,
                     GConnectFlags flags)
{
  g_return_val_if_fail (view == NULL || MG_IS_TIME_VIEW (view), FALSE);

  if (*slot == view)
    return FALSE;
  mg_time_view_unfollow (slot, owner);
  if (view != NULL)
    {
      *slot = g_object_ref (view);
      g_signal_connect_object (view, "notify", on_notify, owner, flags);
    }
  return TRUE;
}

void
mg_time_view_unfollow (MgTimeView **slot, gpointer owner)
{
  if (*slot != NULL)
    g_signal_handlers_disconnect_by_data (*slot, owner);
  g_clear_object (slot);
}
