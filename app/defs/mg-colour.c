/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Colour codes of the spec (3.4): hex forms, rgb(), hsv(), hsl() and the SVG
 * 1.1 keywords; and MAP's SpecialLine<n>, which its own files use. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mg-colour.h"

#include "mg-colour-keywords.inc"

G_DEFINE_QUARK (mg-colour-error-quark, mg_colour_error)

static MgRgba
rgba_from_rgb24 (guint32 rgb)
{
  return (MgRgba) { ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                    (rgb & 0xff) / 255.0, 1.0 };
}

static int
compare_keyword (const void *key, const void *member)
{
  const char *name = key;
  const char *const *entry_name = member; /* name is the first field */

  return g_ascii_strcasecmp (name, *entry_name);
}

static gboolean
parse_keyword (const char *spec, MgRgba *out)
{
  const void *found = bsearch (spec, colour_keywords, G_N_ELEMENTS (colour_keywords),
                               sizeof colour_keywords[0], compare_keyword);

  if (found == NULL)
    return FALSE;
  *out = rgba_from_rgb24 (((const typeof (colour_keywords[0]) *) found)->rgb);
  return TRUE;
}

/* MAP's named line colours, SpecialLine1, SpecialLine2, …, which MAP's
 * shipped definition files use (SpecialLine5 … SpecialLine8 in the energy and
 * file-system plugins). MAP does not document its values: this palette is
 * Metrograph's own (docs/definitions.md), hues that stay apart from each
 * other and read on light and dark backgrounds. SpecialLine<n> takes entry
 * (n - 1) modulo its size, so any n is a colour. */
static const guint32 special_lines[] = {
  0x3A74CC, /* blue */
  0xD0621B, /* orange */
  0x2E8B47, /* green */
  0xC8449C, /* magenta */
  0x8660DA, /* violet */
  0x128A9A, /* teal */
  0xA87B16, /* ochre */
  0xD4443F, /* red */
};
#define SPECIAL_LINE_PREFIX "SpecialLine"

static gboolean
parse_special_line (const char *spec, MgRgba *out)
{
  const size_t prefix_len = strlen (SPECIAL_LINE_PREFIX);
  guint64 n;

  if (g_ascii_strncasecmp (spec, SPECIAL_LINE_PREFIX, prefix_len) != 0
      || !g_ascii_string_to_unsigned (spec + prefix_len, 10, 1, G_MAXUINT, &n, NULL))
    return FALSE;
  *out = rgba_from_rgb24 (special_lines[(n - 1) % G_N_ELEMENTS (special_lines)]);
  return TRUE;
}

/* #RGB, #RRGGBB, #RRRGGGBBB, #RRRRGGGGBBBB: each channel has len/3 digits. */
static gboolean
parse_hex (const char *digits, MgRgba *out)
{
  size_t len = strlen (digits);
  size_t per;
  double max;
  double channel[3];

  if (len != 3 && len != 6 && len != 9 && len != 12)
    return FALSE;
  for (size_t i = 0; i < len; i++)
    if (!g_ascii_isxdigit (digits[i]))
      return FALSE;

  per = len / 3;
  max = (double) ((1u << (4 * per)) - 1);
  for (int c = 0; c < 3; c++)
    {
      guint value = 0;

      for (size_t i = 0; i < per; i++)
        value = value * 16 + (guint) g_ascii_xdigit_value (digits[c * per + i]);
      channel[c] = value / max;
    }
  *out = (MgRgba) { channel[0], channel[1], channel[2], 1.0 };
  return TRUE;
}

/* "name(a, b, c)" with three decimal numbers; spaces anywhere. */
static gboolean
parse_function (const char *spec, const char *name, double values[3])
{
  size_t name_len = strlen (name);
  const char *p = spec;

  if (g_ascii_strncasecmp (p, name, name_len) != 0)
    return FALSE;
  p += name_len;
  while (g_ascii_isspace (*p))
    p++;
  if (*p++ != '(')
    return FALSE;
  for (int i = 0; i < 3; i++)
    {
      char *end;

      while (g_ascii_isspace (*p))
        p++;
      if (!g_ascii_isdigit (*p) && *p != '.')
        return FALSE;
      values[i] = g_ascii_strtod (p, &end);
      if (end == p || !isfinite (values[i]))
        return FALSE;
      p = end;
      while (g_ascii_isspace (*p))
        p++;
      if (*p++ != (i < 2 ? ',' : ')'))
        return FALSE;
    }
  while (g_ascii_isspace (*p))
    p++;
  return *p == '\0';
}

static MgRgba
rgba_from_hsv (double h, double s, double v)
{
  double c = v * s;
  double hp = fmod (h, 360.0) / 60.0;
  double x = c * (1.0 - fabs (fmod (hp, 2.0) - 1.0));
  double m = v - c;
  double r = 0, g = 0, b = 0;

  if (hp < 1)
    r = c, g = x;
  else if (hp < 2)
    r = x, g = c;
  else if (hp < 3)
    g = c, b = x;
  else if (hp < 4)
    g = x, b = c;
  else if (hp < 5)
    r = x, b = c;
  else
    r = c, b = x;
  return (MgRgba) { r + m, g + m, b + m, 1.0 };
}

static MgRgba
rgba_from_hsl (double h, double s, double l)
{
  double v = l + s * MIN (l, 1.0 - l);
  double sv = v == 0.0 ? 0.0 : 2.0 * (1.0 - l / v);

  return rgba_from_hsv (h, sv, v);
}

MgRgba
mg_colour_from_hsl (double h, double s, double l)
{
  return rgba_from_hsl (h, s, l);
}

static gboolean
in_range (const double values[3], double max0, double max12)
{
  return values[0] <= max0 && values[1] <= max12 && values[2] <= max12;
}

static gboolean
parse_trimmed (const char *spec, MgRgba *out, const char **range_hint)
{
  double v[3];

  if (spec[0] == '#')
    return parse_hex (spec + 1, out);
  if (parse_function (spec, "rgb", v))
    {
      *range_hint = N_("rgb() takes three numbers from 0 to 255");
      if (!in_range (v, 255, 255))
        return FALSE;
      *out = (MgRgba) { v[0] / 255.0, v[1] / 255.0, v[2] / 255.0, 1.0 };
      return TRUE;
    }
  if (parse_function (spec, "hsv", v))
    {
      *range_hint = N_("hsv() takes a hue from 0 to 359, then two numbers from 0 to 100");
      if (!in_range (v, 359, 100))
        return FALSE;
      *out = rgba_from_hsv (v[0], v[1] / 100.0, v[2] / 100.0);
      return TRUE;
    }
  if (parse_function (spec, "hsl", v))
    {
      *range_hint = N_("hsl() takes a hue from 0 to 359, then two numbers from 0 to 100");
      if (!in_range (v, 359, 100))
        return FALSE;
      *out = rgba_from_hsl (v[0], v[1] / 100.0, v[2] / 100.0);
      return TRUE;
    }
  return parse_keyword (spec, out) || parse_special_line (spec, out);
}

gboolean
mg_colour_parse (const char *spec, MgRgba *out, GError **error)
{
  g_autofree char *trimmed = NULL;
  const char *range_hint = NULL;
  MgRgba colour;

  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (spec == NULL)
    spec = "";
  trimmed = g_strstrip (g_strdup (spec));
  if (!parse_trimmed (trimmed, &colour, &range_hint))
    {
      g_set_error (error, MG_COLOUR_ERROR, MG_COLOUR_ERROR_INVALID,
                   _("'%s' is not a colour: %s"), trimmed,
                   range_hint != NULL
                     ? _(range_hint)
                     : _("use #RGB, #RRGGBB, #RRRGGGBBB, #RRRRGGGGBBBB, rgb(R, G, B), "
                         "hsv(H, S, V), hsl(H, S, L), an SVG 1.1 colour keyword or "
                         "MAP's SpecialLine1, SpecialLine2, …"));
      return FALSE;
    }
  if (out != NULL)
    *out = colour;
  return TRUE;
}

/* One hue per type; the dark variants are lighter so they read on a dark
 * background, the light ones darker so they read on white. */
MgRgba
mg_colour_for_type (MgMetricType type, gboolean dark)
{
  static const guint32 light[] = {
    [MG_METRIC_TYPE_CPU_TIME] = 0x2E7D32,     /* green */
    [MG_METRIC_TYPE_ENERGY] = 0xC62828,       /* red */
    [MG_METRIC_TYPE_INSTRUCTIONS] = 0x6A1B9A, /* purple */
    [MG_METRIC_TYPE_IO] = 0xEF6C00,           /* orange */
    [MG_METRIC_TYPE_MEMORY] = 0x1565C0,       /* blue */
    [MG_METRIC_TYPE_MPI] = 0x00838F,          /* teal */
    [MG_METRIC_TYPE_OTHER] = 0x5D6D7E,        /* slate */
  };
  static const guint32 dark_bg[] = {
    [MG_METRIC_TYPE_CPU_TIME] = 0x81C784,
    [MG_METRIC_TYPE_ENERGY] = 0xEF9A9A,
    [MG_METRIC_TYPE_INSTRUCTIONS] = 0xCE93D8,
    [MG_METRIC_TYPE_IO] = 0xFFB74D,
    [MG_METRIC_TYPE_MEMORY] = 0x90CAF9,
    [MG_METRIC_TYPE_MPI] = 0x80DEEA,
    [MG_METRIC_TYPE_OTHER] = 0xB0BEC5,
  };
  guint index = (guint) type < G_N_ELEMENTS (light) ? (guint) type : MG_METRIC_TYPE_OTHER;

  return rgba_from_rgb24 (dark ? dark_bg[index] : light[index]);
}

static guint
channel_byte (double value)
{
  return (guint) lround (CLAMP (value, 0.0, 1.0) * 255.0);
}

char *
mg_colour_to_string (const MgRgba *colour)
{
  g_return_val_if_fail (colour != NULL, NULL);
  return g_strdup_printf ("#%02X%02X%02X", channel_byte (colour->r),
                          channel_byte (colour->g), channel_byte (colour->b));
}

guint
mg_colour_get_n_keywords (void)
{
  return G_N_ELEMENTS (colour_keywords);
}

const char *
mg_colour_get_keyword (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (colour_keywords), NULL);
  return colour_keywords[index].name;
}
