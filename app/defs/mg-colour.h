/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Colours of metrics: the one place colour codes are parsed (spec 3.4) and
 * the default colour of each metric type. GTK-free. */
#pragma once

#include <glib.h>

#include "mg-metric-def.h"

G_BEGIN_DECLS

#define MG_COLOUR_ERROR (mg_colour_error_quark ())
GQuark mg_colour_error_quark (void);

typedef enum {
  MG_COLOUR_ERROR_INVALID,
} MgColourError;

gboolean mg_colour_parse (const char *spec, MgRgba *out, GError **error);
MgRgba mg_colour_for_type (MgMetricType type, gboolean dark);
char *mg_colour_to_string (const MgRgba *colour);
/* h in degrees, s and l in [0, 1], as CSS hsl(). */
MgRgba mg_colour_from_hsl (double h, double s, double l);
guint mg_colour_get_n_keywords (void);
const char *mg_colour_get_keyword (guint index);

G_END_DECLS
