/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The colour parser on every form of the spec and every SVG 1.1 keyword. */
#include <math.h>
#include <string.h>

#include "defs/mg-colour.h"

static void
assert_colour (const char *spec, double r, double g, double b)
{
  g_autoptr (GError) error = NULL;
  MgRgba colour = { -1, -1, -1, -1 };

  g_test_message ("colour %s", spec);
  g_assert_true (mg_colour_parse (spec, &colour, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (colour.r, r, 1e-3);
  g_assert_cmpfloat_with_epsilon (colour.g, g, 1e-3);
  g_assert_cmpfloat_with_epsilon (colour.b, b, 1e-3);
  g_assert_cmpfloat (colour.a, ==, 1.0);
}

static void
assert_invalid (const char *spec, const char *message_part)
{
  g_autoptr (GError) error = NULL;
  MgRgba colour = { 0.25, 0.5, 0.75, 1 };

  g_test_message ("invalid colour %s", spec);
  g_assert_false (mg_colour_parse (spec, &colour, &error));
  g_assert_error (error, MG_COLOUR_ERROR, MG_COLOUR_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, message_part));
  /* The output is untouched on failure. */
  g_assert_cmpfloat (colour.r, ==, 0.25);
}

static void
test_hex (void)
{
  assert_colour ("#FFF", 1, 1, 1);
  assert_colour ("#123", 1 / 15.0, 2 / 15.0, 3 / 15.0);
  assert_colour ("#FF8000", 1, 128 / 255.0, 0);
  assert_colour ("#ff8000", 1, 128 / 255.0, 0);
  assert_colour ("#FFF000800", 1, 0, 0x800 / 4095.0);
  assert_colour ("#0000FFFF0000", 0, 1, 0);
  assert_colour ("#800000008000", 0x8000 / 65535.0, 0, 0x8000 / 65535.0);
  assert_colour ("  #000  ", 0, 0, 0);
  assert_invalid ("#12", "#RRGGBB");
  assert_invalid ("#12345", "#RGB");
  assert_invalid ("#GGG", "'#GGG' is not a colour");
  assert_invalid ("#1234567890123", "#RRRRGGGGBBBB");
}

static void
test_functions (void)
{
  assert_colour ("rgb(255, 0, 128)", 1, 0, 128 / 255.0);
  assert_colour (" RGB( 0 ,255,0 ) ", 0, 1, 0);
  assert_colour ("hsv(0, 100, 100)", 1, 0, 0);
  assert_colour ("hsv(120, 100, 50)", 0, 0.5, 0);
  assert_colour ("hsv(240, 50, 100)", 0.5, 0.5, 1);
  assert_colour ("hsv(359, 0, 40)", 0.4, 0.4, 0.4);
  assert_colour ("hsl(0, 100, 50)", 1, 0, 0);
  assert_colour ("hsl(240, 100, 25)", 0, 0, 0.5);
  assert_colour ("hsl(0, 0, 100)", 1, 1, 1);
  /* The spec's own example: C = 0.406, X = 0.1286, m = 0.507. */
  assert_colour ("hsl(19, 70, 71)", 0.913, 0.6357, 0.507);

  assert_invalid ("rgb(256, 0, 0)", "0 to 255");
  assert_invalid ("rgb(1, 2)", "not a colour");
  assert_invalid ("rgb(1, 2, 3", "not a colour");
  assert_invalid ("rgb(-1, 2, 3)", "not a colour");
  assert_invalid ("hsv(360, 0, 0)", "hue from 0 to 359");
  assert_invalid ("hsl(0, 101, 0)", "0 to 100");
  assert_invalid ("hsl(0, 50, 50) x", "not a colour");
}

static void
test_keywords (void)
{
  guint n = mg_colour_get_n_keywords ();

  g_assert_cmpuint (n, ==, 147);
  for (guint i = 0; i < n; i++)
    {
      const char *name = mg_colour_get_keyword (i);
      g_autofree char *upper = g_ascii_strup (name, -1);
      g_autofree char *spaced = g_strdup_printf ("\t %s \n", upper);
      g_autoptr (GError) error = NULL;
      MgRgba a, b;

      /* Strictly sorted, so the binary search finds every one. */
      if (i > 0)
        g_assert_cmpint (strcmp (mg_colour_get_keyword (i - 1), name), <, 0);
      g_assert_true (mg_colour_parse (name, &a, &error));
      g_assert_no_error (error);
      g_assert_true (mg_colour_parse (spaced, &b, &error));
      g_assert_no_error (error);
      g_assert_true (memcmp (&a, &b, sizeof a) == 0);
    }

  assert_colour ("lightgoldenrodyellow", 0xFA / 255.0, 0xFA / 255.0, 0xD2 / 255.0);
  assert_colour ("LightGoldenRodYellow", 0xFA / 255.0, 0xFA / 255.0, 0xD2 / 255.0);
  assert_colour ("green", 0, 128 / 255.0, 0);   /* SVG, not X11's 0,255,0 */
  assert_colour ("grey", 0.50196, 0.50196, 0.50196);
  assert_colour ("aliceblue", 0xF0 / 255.0, 0xF8 / 255.0, 1);
  assert_colour ("yellowgreen", 0x9A / 255.0, 0xCD / 255.0, 0x32 / 255.0);
  assert_colour ("crimson", 0xDC / 255.0, 0x14 / 255.0, 0x3C / 255.0);
  assert_invalid ("rebeccapurple", "SVG 1.1 colour keyword");
  assert_invalid ("SpecialLine", "'SpecialLine' is not a colour");
  assert_invalid ("SpecialLine0", "SpecialLine1, SpecialLine2");
  assert_invalid ("SpecialLine5x", "'SpecialLine5x' is not a colour");
  assert_invalid ("SpecialLine-5", "'SpecialLine-5' is not a colour");
  assert_invalid ("", "not a colour");
  assert_invalid (NULL, "not a colour");
}

static void
test_to_string (void)
{
  MgRgba colour;
  g_autofree char *navy = NULL;
  g_autofree char *spec = NULL;

  g_assert_true (mg_colour_parse ("navy", &colour, NULL));
  navy = mg_colour_to_string (&colour);
  g_assert_cmpstr (navy, ==, "#000080");
  g_assert_true (mg_colour_parse ("hsl(19, 70, 71)", &colour, NULL));
  spec = mg_colour_to_string (&colour);
  g_assert_cmpstr (spec, ==, "#E9A281");
}

static double
luminance (MgRgba c)
{
  double channel[3] = { c.r, c.g, c.b };

  for (int i = 0; i < 3; i++)
    channel[i] = channel[i] <= 0.03928 ? channel[i] / 12.92
                                       : pow ((channel[i] + 0.055) / 1.055, 2.4);
  return 0.2126 * channel[0] + 0.7152 * channel[1] + 0.0722 * channel[2];
}

static double
contrast (MgRgba a, double background_luminance)
{
  double la = luminance (a);

  return (MAX (la, background_luminance) + 0.05) / (MIN (la, background_luminance) + 0.05);
}

static void
test_type_colours (void)
{
  for (int dark = 0; dark <= 1; dark++)
    for (int i = MG_METRIC_TYPE_CPU_TIME; i <= MG_METRIC_TYPE_OTHER; i++)
      {
        MgRgba colour = mg_colour_for_type ((MgMetricType) i, dark);

        /* Graph lines need 3:1 against white or against a #242424 dark theme. */
        g_assert_cmpfloat (contrast (colour, dark ? luminance ((MgRgba) { 0x24 / 255.0,
                                                                           0x24 / 255.0,
                                                                           0x24 / 255.0, 1 })
                                                  : 1.0), >=, 3.0);
        for (int j = MG_METRIC_TYPE_CPU_TIME; j < i; j++)
          {
            MgRgba other = mg_colour_for_type ((MgMetricType) j, dark);
            double distance = fabs (colour.r - other.r) + fabs (colour.g - other.g)
                              + fabs (colour.b - other.b);

            g_assert_cmpfloat (distance, >, 0.2);
          }
      }
  /* Out-of-range types fall back to OTHER rather than reading past the table. */
  {
    MgRgba other = mg_colour_for_type (MG_METRIC_TYPE_OTHER, FALSE);
    MgRgba bogus = mg_colour_for_type ((MgMetricType) 99, FALSE);

    g_assert_true (memcmp (&other, &bogus, sizeof other) == 0);
  }
}

/* MAP's SpecialLine<n>: the palette of docs/definitions.md, repeating after
 * its eight colours; lines that read on white and on a dark theme. */
static void
test_special_lines (void)
{
  static const guint32 palette[] = { 0x3A74CC, 0xD0621B, 0x2E8B47, 0xC8449C,
                                     0x8660DA, 0x128A9A, 0xA87B16, 0xD4443F };
  const double dark_background = luminance ((MgRgba) { 0x24 / 255.0, 0x24 / 255.0,
                                                       0x24 / 255.0, 1 });

  for (guint n = 1; n <= 2 * G_N_ELEMENTS (palette); n++)
    {
      g_autofree char *name = g_strdup_printf ("SpecialLine%u", n);
      guint32 rgb = palette[(n - 1) % G_N_ELEMENTS (palette)];
      MgRgba colour;

      assert_colour (name, (rgb >> 16) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                     (rgb & 0xff) / 255.0);
      g_assert_true (mg_colour_parse (name, &colour, NULL));
      g_assert_cmpfloat (contrast (colour, 1.0), >=, 3.0);
      g_assert_cmpfloat (contrast (colour, dark_background), >=, 3.0);
    }
  assert_colour (" specialline5 ", 0x86 / 255.0, 0x60 / 255.0, 0xDA / 255.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/defs/colour/hex", test_hex);
  g_test_add_func ("/defs/colour/functions", test_functions);
  g_test_add_func ("/defs/colour/keywords", test_keywords);
  g_test_add_func ("/defs/colour/to-string", test_to_string);
  g_test_add_func ("/defs/colour/special-lines", test_special_lines);
  g_test_add_func ("/defs/colour/type-colours", test_type_colours);
  return g_test_run ();
}
