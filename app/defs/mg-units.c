/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Values and axes scaled for reading. */
#include "mg-units.h"

#include <math.h>
#include <string.h>

typedef enum {
  UNIT_PLAIN,   /* shown as the author scaled it: no prefix */
  UNIT_SI,      /* k, M, G, T, P */
  UNIT_BYTES,   /* Ki, Mi, Gi, Ti, Pi before the "B" */
  UNIT_TIME,    /* ns, µs, ms, s */
  UNIT_PERCENT,
} UnitKind;

typedef struct {
  UnitKind kind;
  const char *unit;   /* as displayed before prefixing */
  double factor;      /* display factor */
  double time_scale;  /* UNIT_TIME: the unit in seconds */
  const char *rest;   /* UNIT_TIME: what follows the time unit, e.g. "/s" */
} UnitInfo;

/* A prefix: the divisor it stands for and how the unit reads with it. */
typedef struct {
  double divisor;
  char *unit;
} Scale;

/* Percentages read alike whatever their size: "4.6 %", "88.8 %", "100.0 %". */
#define PERCENT_DECIMALS 1

static const char *const si_prefixes[] = { "", "k", "M", "G", "T", "P" };
static const char *const binary_prefixes[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };

static gboolean
is_unit_end (char c)
{
  return c == '\0' || c == '/' || c == ' ';
}

static void
classify (const MgMetricDef *def, UnitInfo *info)
{
  static const struct {
    const char *name;
    double scale;
  } times[] = {
    { "ns", 1e-9 }, { "us", 1e-6 }, { "µs", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
  };
  gboolean author_scaled;
  const char *unit;

  memset (info, 0, sizeof *info);
  unit = def && def->display_units ? def->display_units : (def && def->units ? def->units : "");
  info->unit = unit;
  info->factor = def && isfinite (def->display_factor) && def->display_factor != 0
                   ? def->display_factor : 1.0;
  author_scaled = def && (def->display_units != NULL || info->factor != 1.0)
                  && !def->auto_display_factor;

  if (unit[0] == '%')
    {
      info->kind = UNIT_PERCENT;
      return;
    }
  if (author_scaled)
    {
      info->kind = UNIT_PLAIN;
      return;
    }
  if (unit[0] == 'B')
    {
      info->kind = UNIT_BYTES;
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      size_t len = strlen (times[i].name);
      if (strncmp (unit, times[i].name, len) == 0 && is_unit_end (unit[len]))
        {
          info->kind = UNIT_TIME;
          info->time_scale = times[i].scale;
          info->rest = unit + len;
          return;
        }
    }
  info->kind = UNIT_SI;
}

/* "k" + "W" reads "kW", "k" + "/s" reads "k/s", but "k" + "calls/s" reads
 * better as "k calls/s". */
static char *
join_si (const char *prefix, const char *unit)
{
  size_t word = strcspn (unit, "/ ");

  if (prefix[0] == '\0')
    return g_strdup (unit);
  if (word <= 2)
    return g_strconcat (prefix, unit, NULL);
  return g_strconcat (prefix, " ", unit, NULL);
}

/* The prefix for a magnitude (in displayed units). */
static Scale
choose_scale (const UnitInfo *info, double magnitude)
{
  Scale scale = { 1.0, NULL };
  guint p = 0;

  magnitude = fabs (magnitude);
  switch (info->kind)
    {
    case UNIT_SI:
      while (p + 1 < G_N_ELEMENTS (si_prefixes) && magnitude >= pow (1000, p + 1))
        p++;
      scale.divisor = pow (1000, p);
      scale.unit = join_si (si_prefixes[p], info->unit);
      break;
    case UNIT_BYTES:
      while (p + 1 < G_N_ELEMENTS (binary_prefixes) && magnitude >= pow (1024, p + 1))
        p++;
      scale.divisor = pow (1024, p);
      scale.unit = g_strconcat (binary_prefixes[p], info->unit, NULL);
      break;
    case UNIT_TIME:
      {
        double seconds = magnitude * info->time_scale;
        const char *name = "ns";
        double unit_s = 1e-9;

        if (magnitude == 0)
          {
            scale.unit = g_strdup (info->unit);
            break;
          }
        if (seconds >= 1)
          name = "s", unit_s = 1;
        else if (seconds >= 1e-3)
          name = "ms", unit_s = 1e-3;
        else if (seconds >= 1e-6 || info->time_scale > 1e-9)
          name = "µs", unit_s = 1e-6;
        scale.divisor = unit_s / info->time_scale;
        scale.unit = g_strconcat (name, info->rest, NULL);
        break;
      }
    case UNIT_PLAIN:
    case UNIT_PERCENT:
    default:
      scale.unit = g_strdup (info->unit);
      break;
    }
  return scale;
}

/* Three significant digits: 1.50, 12.3, 850. */
static int
significant_decimals (double value)
{
  double magnitude = fabs (value);
  int decimals;

  if (magnitude == 0 || !isfinite (magnitude))
    return 0;
  decimals = 2 - (int) floor (log10 (magnitude) + 1e-9);
  return CLAMP (decimals, 0, 6);
}

/* A count of an integer metric (dataType uint64_t, not a rate), shown
 * without a prefix, that is a whole number: "2 threads", not "2.00". A
 * mean that falls between two counts keeps its decimals. */
static gboolean
is_whole_count (const MgMetricDef *def, const UnitInfo *info, double divisor, double shown)
{
  if (def == NULL || def->data_type != MG_DATA_TYPE_UINT64 || def->divide_by_sample_time
      || (info->kind != UNIT_SI && info->kind != UNIT_PLAIN) || divisor != 1.0)
    return FALSE;
  return fabs (shown - round (shown)) < 1e-9;
}

static char *
format_number_unit (double value, int decimals, const char *unit)
{
  /* -0.0 would print as "-0". */
  if (value == 0)
    value = 0;
  if (unit == NULL || unit[0] == '\0')
    return g_strdup_printf ("%.*f", decimals, value);
  return g_strdup_printf ("%.*f %s", decimals, value, unit);
}

char *
mg_units_format_value (const MgMetricDef *def, double value)
{
  UnitInfo info;
  Scale scale;
  double shown;
  int decimals;
  char *text;

  if (!isfinite (value))
    return g_strdup ("–");
  classify (def, &info);
  shown = value * info.factor;
  scale = choose_scale (&info, shown);
  shown /= scale.divisor;
  if (def && def->decimal_places >= 0)
    decimals = def->decimal_places;
  else if (info.kind == UNIT_PERCENT)
    decimals = PERCENT_DECIMALS;
  else if (is_whole_count (def, &info, scale.divisor, shown))
    decimals = 0;
  else
    decimals = significant_decimals (shown);
  text = format_number_unit (shown, decimals, scale.unit);
  g_free (scale.unit);
  return text;
}

char *
mg_units_dup_family (const MgMetricDef *def)
{
  UnitInfo info;

  classify (def, &info);
  if (info.kind == UNIT_TIME)
    return g_strconcat ("s", info.rest, NULL);
  return g_strdup (info.unit);
}

/* Trims "1.50" to "1.5" and "2.00" to "2". */
static void
trim_zeros (char *text)
{
  char *dot = strchr (text, '.');
  char *end;

  if (dot == NULL)
    return;
  end = text + strlen (text) - 1;
  while (end > dot && *end == '0')
    *end-- = '\0';
  if (end == dot)
    *end = '\0';
}

char *
mg_units_format_time (double seconds)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (seconds))
    return g_strdup ("–");
  if (seconds == 0)
    return g_strdup ("0 s");
  if (fabs (seconds) < 1)
    {
      double ms = seconds * 1000;
      g_snprintf (buf, sizeof buf, "%.*f", significant_decimals (ms), ms);
      trim_zeros (buf);
      return g_strdup_printf ("%s ms", buf);
    }
  if (fabs (seconds) < 60)
    {
      g_snprintf (buf, sizeof buf, "%.2f", seconds);
      trim_zeros (buf);
      return g_strdup_printf ("%s s", buf);
    }
  else
    {
      double rounded = round (seconds * 10) / 10;
      guint64 hours = (guint64) (rounded / 3600);
      guint64 minutes = (guint64) ((rounded - hours * 3600.0) / 60);
      double secs = rounded - hours * 3600.0 - minutes * 60.0;
      GString *out = g_string_new (NULL);

      if (hours > 0)
        g_string_append_printf (out, "%" G_GUINT64_FORMAT " h", hours);
      if (minutes > 0)
        g_string_append_printf (out, "%s%" G_GUINT64_FORMAT " min", out->len ? " " : "", minutes);
      if (secs >= 0.05)
        {
          g_snprintf (buf, sizeof buf, "%.1f", secs);
          trim_zeros (buf);
          g_string_append_printf (out, "%s%s s", out->len ? " " : "", buf);
        }
      return g_string_free (out, FALSE);
    }
}

/* The smallest 1-2-5 step of at least raw. */
static double
nice_step (double raw)
{
  double magnitude, fraction;

  if (!(raw > 0) || !isfinite (raw))
    return 1;
  magnitude = pow (10, floor (log10 (raw)));
  fraction = raw / magnitude;
  if (fraction <= 1 + 1e-9)
    return magnitude;
  if (fraction <= 2 + 1e-9)
    return 2 * magnitude;
  if (fraction <= 5 + 1e-9)
    return 5 * magnitude;
  return 10 * magnitude;
}

/* The smallest value of the ladder 1, 1.1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8
 * (× a power of ten) at least value (> 0): an axis end close above the
 * data, so little of a row is left empty. */
static double
nice_ceil (double value)
{
  static const double ladder[] = { 1, 1.1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
  double magnitude;

  if (!(value > 0) || !isfinite (value))
    return 1;
  magnitude = pow (10, floor (log10 (value)));
  for (guint i = 0; i < G_N_ELEMENTS (ladder); i++)
    if (value <= ladder[i] * magnitude * (1 + 1e-9))
      return ladder[i] * magnitude;
  return 10 * magnitude;
}

static int
step_decimals (double step)
{
  int decimals = -(int) floor (log10 (step) + 1e-9);
  return CLAMP (decimals, 0, 9);
}

static MgAxis *
axis_alloc (guint n_ticks)
{
  MgAxis *axis = g_new0 (MgAxis, 1);

  axis->n_ticks = n_ticks;
  axis->ticks = g_new0 (double, MAX (n_ticks, 1));
  axis->labels = g_new0 (char *, n_ticks + 1);
  return axis;
}

MgAxis *
mg_axis_new (const MgMetricDef *def, double data_min, double data_max, guint max_ticks)
{
  UnitInfo info;
  Scale scale;
  double lo, hi, slo, shi, step, first, last, to_raw;
  gboolean axis_flat;
  guint n;
  int decimals;
  MgAxis *axis;

  max_ticks = MAX (max_ticks, 2);
  classify (def, &info);

  if (!isfinite (data_min) || !isfinite (data_max))
    data_min = data_max = 0;
  if (data_max < data_min)
    {
      double tmp = data_min;
      data_min = data_max;
      data_max = tmp;
    }
  lo = data_min * info.factor;
  hi = data_max * info.factor;
  if (hi < lo)
    {
      double tmp = lo;
      lo = hi;
      hi = tmp;
    }
  axis_flat = lo == 0 && hi == 0;
  if (lo >= 0)
    lo = 0;
  if (hi <= lo)
    hi = lo == 0 ? 1 : lo + fabs (lo);
  if (hi <= lo)
    hi = lo + 1;

  /* The ends close beyond the data on the prefix that reads them (a new
   * end may need the next prefix: 1000 µs is 1 ms). */
  scale = choose_scale (&info, MAX (fabs (lo), fabs (hi)));
  shi = hi > 0 ? nice_ceil (hi / scale.divisor) : 0;
  slo = lo < 0 ? -nice_ceil (-lo / scale.divisor) : 0;
  {
    Scale rescaled = choose_scale (&info, MAX (fabs (slo), fabs (shi)) * scale.divisor);

    if (rescaled.divisor != scale.divisor)
      {
        shi *= scale.divisor / rescaled.divisor;
        slo *= scale.divisor / rescaled.divisor;
        g_free (scale.unit);
        scale = rescaled;
      }
    else
      g_free (rescaled.unit);
  }
  /* A percentage the data keeps within 100 never goes past 100. */
  if (info.kind == UNIT_PERCENT && hi <= 100 && shi > 100)
    shi = 100;
  step = nice_step ((shi - slo) / (max_ticks - 1));
  first = ceil (slo / step - 1e-9) * step;
  last = floor (shi / step + 1e-9) * step;
  n = (guint) llround ((last - first) / step) + 1;

  axis = axis_alloc (n);
  axis->percent = info.kind == UNIT_PERCENT;
  to_raw = scale.divisor / info.factor;
  decimals = def && def->decimal_places >= 0 ? def->decimal_places : step_decimals (step);
  for (guint i = 0; i < n; i++)
    {
      double shown = first + i * step;
      axis->ticks[i] = shown * to_raw;
      axis->labels[i] = format_number_unit (shown, decimals, scale.unit);
    }
  axis->min = slo * to_raw;
  axis->max = shi * to_raw;
  axis->flat = axis_flat;
  if (axis->min > axis->max)
    {
      double tmp = axis->min;
      axis->min = axis->max;
      axis->max = tmp;
    }
  axis->step = fabs (step * to_raw);
  axis->unit = scale.unit;
  return axis;
}

/* Time steps: 1-2-5 below a minute, then minutes and hours that read well. */
static double
nice_time_step (double raw)
{
  static const double long_steps[] = {
    60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
  };

  if (raw < 30)
    {
      double step = nice_step (raw);
      return step > 30 ? 30 : step;
    }
  for (guint i = 0; i < G_N_ELEMENTS (long_steps); i++)
    if (raw <= long_steps[i])
      return long_steps[i];
  return nice_step (raw / 86400) * 86400;
}

static char *
format_time_tick (double t, double step)
{
  if (fabs (t) < step * 1e-6)
    return g_strdup ("0 s");
  if (step < 1)
    return g_strdup_printf ("%.*f s", step_decimals (step), t);
  return mg_units_format_time (round (t));
}

MgAxis *
mg_axis_new_time (double t0, double t1, guint max_ticks)
{
  double span, step, first;
  guint n = 0;
  MgAxis *axis;

  max_ticks = MAX (max_ticks, 2);
  if (!isfinite (t0) || !isfinite (t1))
    t0 = t1 = 0;
  if (t1 < t0)
    {
      double tmp = t0;
      t0 = t1;
      t1 = tmp;
    }
  span = t1 - t0;
  if (span <= 0)
    span = 1;
  /* The range is not rounded to the ticks, so try the finest step first. */
  step = nice_time_step (span / max_ticks);
  while (floor (t1 / step + 1e-9) - ceil (t0 / step - 1e-9) + 1 > max_ticks)
    step = nice_time_step (step * 1.01);
  first = ceil (t0 / step - 1e-9) * step;
  while (first + n * step <= t1 + step * 1e-9 && n < max_ticks)
    n++;

  axis = axis_alloc (n);
  for (guint i = 0; i < n; i++)
    {
      axis->ticks[i] = first + i * step;
      axis->labels[i] = format_time_tick (axis->ticks[i], step);
    }
  axis->min = t0;
  axis->max = t1;
  axis->step = step;
  axis->unit = g_strdup ("s");
  return axis;
}

void
mg_axis_free (MgAxis *axis)
{
  if (axis == NULL)
    return;
  g_free (axis->ticks);
  g_strfreev (axis->labels);
  g_free (axis->unit);
  g_free (axis);
}
