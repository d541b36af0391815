/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Text that an SVG export writes as text. cairo's SVG surface writes
 * glyphs as outlines, which cannot be selected, searched or read aloud:
 * with a sink attached to a cairo context, mg_text_show records each text
 * where it would have been drawn (device coordinates, size, weight and
 * colour), and the export writes them as <text> elements afterwards.
 * Without a sink it is cairo_show_text. GTK-free. */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  double x, y;     /* the baseline's start, in device units */
  double size;     /* font size, in device units */
  gboolean bold;
  double r, g, b, a;
  char *text;
} MgTextRun;

typedef struct _MgTextSink MgTextSink;

MgTextSink *mg_text_sink_new (void);
void mg_text_sink_free (MgTextSink *sink);
/* Texts shown on @cr from now on are recorded in @sink instead of drawn
 * (@sink must outlive @cr's drawing). */
void mg_text_sink_attach (MgTextSink *sink, cairo_t *cr);
guint mg_text_sink_get_n_runs (MgTextSink *sink);
const MgTextRun *mg_text_sink_get_run (MgTextSink *sink, guint i);

/* cairo_show_text, or with a sink on @cr, the text recorded at the
 * current point with the current font and source colour; the current
 * point advances as cairo_show_text moves it. */
void mg_text_show (cairo_t *cr, const char *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgTextSink, mg_text_sink_free)

G_END_DECLS
