/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Units scaled for reading: values, value axes and time axes. */
#include <math.h>

#include "defs/mg-units.h"

static MgMetricDef *
def_with_units (const char *units)
{
  MgMetricDef *def = mg_metric_def_new ();

  g_free (def->units);
  def->units = g_strdup (units);
  return def;
}

static void
check_value (const char *units, double value, const char *expected)
{
  g_autoptr (MgMetricDef) def = def_with_units (units);
  g_autofree char *text = mg_units_format_value (def, value);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_bytes (void)
{
  check_value ("B", 1536, "1.50 KiB");
  check_value ("B", 1.5 * 1024 * 1024 * 1024, "1.50 GiB");
  check_value ("B", 512, "512 B");
  check_value ("B/s", 10 * 1024 * 1024, "10.0 MiB/s");
  check_value ("B", 0, "0 B");
  check_value ("B", 3.0 * 1024 * 1024 * 1024 * 1024, "3.00 TiB");
}

static void
test_si (void)
{
  check_value ("/s", 2.5e9, "2.50 G/s");
  check_value ("/s", 12345, "12.3 k/s");
  check_value ("calls/s", 12345, "12.3 k calls/s");
  check_value ("W", 1500, "1.50 kW");
  check_value ("", 999, "999");
  check_value ("", 1e12, "1.00 T");
  check_value ("", -2500, "-2.50 k");
  check_value ("", 0.5, "0.500");
}

/* Integer metrics (uint64_t, not divided by the sample time) show whole
 * counts as integers: a thread count of 2 read "2.00". */
static void
test_integer_counts (void)
{
  g_autoptr (MgMetricDef) threads = def_with_units ("");
  g_autoptr (MgMetricDef) rate = def_with_units ("/s");
  g_autoptr (MgMetricDef) ratio = def_with_units ("");
  g_autofree char *two = NULL, *mean = NULL, *big = NULL, *per_second = NULL, *real = NULL;

  threads->data_type = MG_DATA_TYPE_UINT64;
  rate->data_type = MG_DATA_TYPE_UINT64;
  rate->divide_by_sample_time = TRUE;
  ratio->data_type = MG_DATA_TYPE_DOUBLE;
  two = mg_units_format_value (threads, 2);
  mean = mg_units_format_value (threads, 1.5);
  big = mg_units_format_value (threads, 2000);
  per_second = mg_units_format_value (rate, 2);
  real = mg_units_format_value (ratio, 2);
  g_assert_cmpstr (two, ==, "2");
  g_assert_cmpstr (mean, ==, "1.50");
  g_assert_cmpstr (big, ==, "2.00 k");
  g_assert_cmpstr (per_second, ==, "2.00 /s");
  g_assert_cmpstr (real, ==, "2.00");
}

static void
test_time (void)
{
  check_value ("ns", 850000, "850 µs");
  check_value ("ns", 12, "12.0 ns");
  check_value ("ns", 2.5e9, "2.50 s");
  check_value ("s", 0.0125, "12.5 ms");
  check_value ("ms", 1500, "1.50 s");
  check_value ("ns/s", 3.2e6, "3.20 ms/s");
}

/* A row's unit label: the family, since values choose their own prefix. */
static void
test_family (void)
{
  const char *cases[][2] = {
    { "ns", "s" }, { "ms", "s" }, { "ns/s", "s/s" }, { "B", "B" }, { "B/s", "B/s" },
    { "%", "%" }, { "calls/s", "calls/s" }, { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (MgMetricDef) def = def_with_units (cases[i][0]);
      g_autofree char *family = mg_units_dup_family (def);

      g_assert_cmpstr (family, ==, cases[i][1]);
    }
}

static void
test_percent (void)
{
  /* One format for every percentage: one decimal. */
  check_value ("%", 45, "45.0 %");
  check_value ("%", 100, "100.0 %");
  check_value ("%", 4.6, "4.6 %");
  check_value ("%", 0.481, "0.5 %");
  check_value ("%", 105.26, "105.3 %");
  check_value ("%", 4500, "4500.0 %"); /* never prefixed */
}

static void
test_display_settings (void)
{
  g_autoptr (MgMetricDef) def = def_with_units ("B");
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;
  g_autofree char *d = NULL;

  /* displayFactor and displayUnits: the author scaled it, no prefixes. */
  def->display_factor = 1e-6;
  def->display_units = g_strdup ("MB");
  a = mg_units_format_value (def, 2.5e9);
  g_assert_cmpstr (a, ==, "2500 MB");
  /* decimalPlaces */
  def->decimal_places = 3;
  b = mg_units_format_value (def, 2.5e6);
  g_assert_cmpstr (b, ==, "2.500 MB");
  /* autoDisplayFactor brings the prefixes back (on the display unit). */
  def->auto_display_factor = TRUE;
  def->decimal_places = -1;
  g_free (def->display_units);
  def->display_units = g_strdup ("per 1000 instructions");
  def->display_factor = 1000;
  c = mg_units_format_value (def, 5);
  g_assert_cmpstr (c, ==, "5.00 k per 1000 instructions");
  /* NaN is a dash, not "nan". */
  d = mg_units_format_value (def, NAN);
  g_assert_cmpstr (d, ==, "–");
}

static void
test_format_time (void)
{
  struct {
    double t;
    const char *text;
  } cases[] = {
    { 0, "0 s" }, { 1.25, "1.25 s" }, { 1.5, "1.5 s" }, { 12, "12 s" }, { 0.85, "850 ms" },
    { 120, "2 min" }, { 90, "1 min 30 s" }, { 3600, "1 h" }, { 3725, "1 h 2 min 5 s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = mg_units_format_time (cases[i].t);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

static void
assert_labels (const MgAxis *axis, const char *const *expected)
{
  g_assert_cmpuint (axis->n_ticks, ==, g_strv_length ((char **) expected));
  for (guint i = 0; i < axis->n_ticks; i++)
    g_assert_cmpstr (axis->labels[i], ==, expected[i]);
  g_assert_null (axis->labels[axis->n_ticks]);
}

static void
test_axis_percent (void)
{
  g_autoptr (MgMetricDef) def = def_with_units ("%");
  g_autoptr (MgAxis) busy = mg_axis_new (def, 3, 93, 3);
  g_autoptr (MgAxis) little = mg_axis_new (def, 0, 31.7, 3);
  g_autoptr (MgAxis) over = mg_axis_new (def, 0, 106, 3);
  g_autoptr (MgAxis) threads = mg_axis_new (def, 0, 340, 5);
  const char *const busy_labels[] = { "0 %", "50 %", "100 %", NULL };
  const char *const little_labels[] = { "0 %", "20 %", "40 %", NULL };
  const char *const over_labels[] = { "0 %", "100 %", NULL };

  /* A busy process: 100 %, the whole row used... */
  g_assert_true (busy->percent);
  g_assert_cmpfloat (busy->min, ==, 0);
  g_assert_cmpfloat (busy->max, ==, 100);
  assert_labels (busy, busy_labels);
  /* ...a little MPI time: the scale ends close above it, not at 100... */
  g_assert_cmpfloat (little->max, ==, 40);
  assert_labels (little, little_labels);
  /* ...just past 100 (two threads now and then): 110, not 150 or 200... */
  g_assert_cmpfloat_with_epsilon (over->max, 110, 1e-9);
  assert_labels (over, over_labels);
  /* ...and a percentage within 100 never ends past it (99.5 would round
   * up to 100 anyway; 100 exactly stays). */
  {
    g_autoptr (MgAxis) full = mg_axis_new (def, 0, 100, 3);

    g_assert_cmpfloat (full->max, ==, 100);
  }
  g_assert_cmpfloat (threads->min, ==, 0);
  g_assert_cmpfloat (threads->max, ==, 400);
  g_assert_cmpfloat (threads->step, ==, 100);
}

/* All zero: flagged, so the graph says "0 throughout" rather than draw an
 * invented scale. */
static void
test_axis_flat (void)
{
  g_autoptr (MgMetricDef) def = def_with_units ("B/s");
  g_autoptr (MgAxis) zero = mg_axis_new (def, 0, 0, 3);
  g_autoptr (MgAxis) some = mg_axis_new (def, 0, 1, 3);

  g_assert_true (zero->flat);
  g_assert_false (some->flat);
}

static void
test_axis_bytes (void)
{
  g_autoptr (MgMetricDef) def = def_with_units ("B");
  double mib = 1024.0 * 1024.0;
  g_autoptr (MgAxis) axis = mg_axis_new (def, 100 * mib, 900 * mib, 3);
  const char *const labels[] = { "0 MiB", "500 MiB", "1000 MiB", NULL };
  g_autoptr (MgAxis) rate = NULL;
  const char *const rate_labels[] = { "0.0 MiB/s", "0.5 MiB/s", "1.0 MiB/s", "1.5 MiB/s", NULL };

  /* Non-negative data: 0-based; one common prefix for every label; the
   * end close above the data. */
  g_assert_cmpfloat (axis->min, ==, 0);
  g_assert_cmpfloat_with_epsilon (axis->max, 1000 * mib, 1e-3);
  g_assert_cmpfloat_with_epsilon (axis->ticks[1], 500 * mib, 1e-3);
  g_assert_cmpstr (axis->unit, ==, "MiB");
  assert_labels (axis, labels);
  /* 1.47 MiB/s: 1.5 MiB/s, in the prefix of the data (not in raw bytes). */
  {
    g_autoptr (MgMetricDef) rate_def = def_with_units ("B/s");

    rate = mg_axis_new (rate_def, 0, 1.47 * mib, 4);
  }
  g_assert_cmpfloat_with_epsilon (rate->max, 1.5 * mib, 1e-3);
  assert_labels (rate, rate_labels);
}

static void
test_axis_rates (void)
{
  g_autoptr (MgMetricDef) def = def_with_units ("/s");
  g_autoptr (MgAxis) axis = mg_axis_new (def, 0, 2.3e6, 4);
  const char *const labels[] = { "0 M/s", "1 M/s", "2 M/s", NULL };
  g_autoptr (MgAxis) small = mg_axis_new (def, 0, 0.7, 3);
  const char *const small_labels[] = { "0.0 /s", "0.5 /s", NULL };
  g_autoptr (MgAxis) negative = mg_axis_new (def, -12, 7, 5);
  g_autoptr (MgAxis) empty = mg_axis_new (def, NAN, NAN, 3);

  assert_labels (axis, labels);
  g_assert_cmpfloat_with_epsilon (axis->max, 2.5e6, 1e-6);
  assert_labels (small, small_labels);
  g_assert_cmpfloat_with_epsilon (small->max, 0.8, 1e-9);
  /* Negative data: the axis reaches below zero as far as a nice value. */
  g_assert_cmpfloat (negative->min, ==, -12);
  g_assert_cmpfloat (negative->max, ==, 8);
  g_assert_cmpuint (negative->n_ticks, <=, 5);
  /* No data: still a usable axis. */
  g_assert_cmpfloat (empty->min, ==, 0);
  g_assert_cmpfloat (empty->max, >, 0);
}

static void
test_axis_time_units (void)
{
  g_autoptr (MgMetricDef) def = def_with_units ("ns");
  g_autoptr (MgAxis) axis = mg_axis_new (def, 0, 1.8e6, 3);
  const char *const labels[] = { "0 ms", "1 ms", "2 ms", NULL };
  g_autoptr (MgAxis) near_ms = mg_axis_new (def, 0, 950e3, 3);
  const char *const near_labels[] = { "0.0 ms", "0.5 ms", "1.0 ms", NULL };

  assert_labels (axis, labels);
  g_assert_cmpfloat_with_epsilon (axis->ticks[2], 2e6, 1e-6);
  /* 950 µs rounds up to 1 ms: read in ms, not as "1000 µs". */
  assert_labels (near_ms, near_labels);
  g_assert_cmpstr (near_ms->unit, ==, "ms");
}

static void
test_axis_display_factor (void)
{
  g_autoptr (MgMetricDef) def = def_with_units ("B");
  g_autoptr (MgAxis) axis = NULL;
  const char *const labels[] = { "0.00 MB", "2.00 MB", "4.00 MB", NULL };

  def->display_factor = 1e-6;
  def->display_units = g_strdup ("MB");
  def->decimal_places = 2;
  axis = mg_axis_new (def, 0, 3.2e6, 3);
  assert_labels (axis, labels);
  /* Ticks stay in raw values: 2 MB is 2e6 bytes. */
  g_assert_cmpfloat_with_epsilon (axis->ticks[1], 2e6, 1e-6);
}

static void
test_time_axis (void)
{
  g_autoptr (MgAxis) a = mg_axis_new_time (0, 10, 6);
  const char *const a_labels[] = { "0 s", "2 s", "4 s", "6 s", "8 s", "10 s", NULL };
  g_autoptr (MgAxis) b = mg_axis_new_time (0.3, 3.1, 6);
  const char *const b_labels[] = { "0.5 s", "1.0 s", "1.5 s", "2.0 s", "2.5 s", "3.0 s", NULL };
  g_autoptr (MgAxis) c = mg_axis_new_time (0, 600, 6);
  const char *const c_labels[] = { "0 s", "2 min", "4 min", "6 min", "8 min", "10 min", NULL };
  g_autoptr (MgAxis) d = mg_axis_new_time (30, 150, 5);
  const char *const d_labels[] = { "30 s", "1 min", "1 min 30 s", "2 min", "2 min 30 s", NULL };

  assert_labels (a, a_labels);
  g_assert_cmpfloat (a->min, ==, 0);
  g_assert_cmpfloat (a->max, ==, 10);
  assert_labels (b, b_labels);
  assert_labels (c, c_labels);
  assert_labels (d, d_labels);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/units/bytes", test_bytes);
  g_test_add_func ("/units/si", test_si);
  g_test_add_func ("/units/time", test_time);
  g_test_add_func ("/units/integer-counts", test_integer_counts);
  g_test_add_func ("/units/percent", test_percent);
  g_test_add_func ("/units/family", test_family);
  g_test_add_func ("/units/display-settings", test_display_settings);
  g_test_add_func ("/units/format-time", test_format_time);
  g_test_add_func ("/units/axis/percent", test_axis_percent);
  g_test_add_func ("/units/axis/flat", test_axis_flat);
  g_test_add_func ("/units/axis/bytes", test_axis_bytes);
  g_test_add_func ("/units/axis/rates", test_axis_rates);
  g_test_add_func ("/units/axis/time-units", test_axis_time_units);
  g_test_add_func ("/units/axis/display-factor", test_axis_display_factor);
  g_test_add_func ("/units/axis/time", test_time_axis);
  return g_test_run ();
}
