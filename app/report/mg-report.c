/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Building a report from a profile and the partial reports. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "profile/mg-shell-line.h"
#include "mg-report-value.h"
#include "mg-report.h"
#include "defs/mg-units.h"

/* The threads metric of the built-in plugins, for the header. */
#define THREADS_METRIC "org.metrograph.threads"

static void
fact_free (MgReportFact *fact)
{
  g_free (fact->label);
  g_free (fact->value);
  g_free (fact);
}

static void
add_fact (MgReport *report, const char *label, char *value)
{
  MgReportFact *fact = g_new0 (MgReportFact, 1);

  fact->label = g_strdup (label);
  /* Names are bytes (a host, a folder): shown with what is not UTF-8
   * replaced. */
  fact->value = g_utf8_make_valid (value != NULL ? value : "", -1);
  g_free (value);
  g_ptr_array_add (report->facts, fact);
}

MgReportLine *
mg_report_line_new (const char *name, double value, const char *units, const char *why_not)
{
  MgReportLine *line = g_new0 (MgReportLine, 1);
  MgMetricDef def = { .units = (char *) units, .display_factor = 1.0, .decimal_places = -1 };

  line->name = g_strdup (name);
  line->value = value;
  line->value_text = isnan (value) ? g_strdup (why_not != NULL ? why_not
                                                                : _("not recorded in this run"))
                                   : mg_units_format_value (&def, value);
  line->bar = NAN;
  line->baseline = NAN;
  line->change = NAN;
  return line;
}

void
mg_report_line_set_scale (MgReportLine *line, double full, gboolean peak, const char *units)
{
  MgMetricDef def = { .units = (char *) units, .display_factor = 1.0, .decimal_places = -1 };
  g_autofree char *text = NULL;

  g_clear_pointer (&line->scale_text, g_free);
  line->bar = NAN;
  if (isnan (line->value) || isnan (full))
    return;
  full = fabs (full);
  line->bar = full > 0 ? fabs (line->value) / full : 0.0;
  /* A share's scale is exactly 100 %, said without decimals. */
  text = peak ? mg_units_format_value (&def, full) : g_strdup ("100 %");
  if (peak)
    /* Translators: what a full bar of a report line is: "of the peak, 12.3 kB/s" */
    line->scale_text = g_strdup_printf (_("of the peak, %s"), text);
  else
    /* Translators: what a full bar of a report line is: "of 100 %" */
    line->scale_text = g_strdup_printf (_("of %s"), text);
}

void
mg_report_line_free (MgReportLine *line)
{
  g_free (line->scale_text);
  g_free (line->name);
  g_free (line->tooltip);
  g_free (line->value_text);
  g_free (line->baseline_text);
  g_free (line);
}

static void
section_free (MgReportSection *section)
{
  g_free (section->heading);
  g_free (section->text);
  g_ptr_array_unref (section->lines);
  g_free (section);
}

static char *
resources (MgProfile *profile, const MgRunInfo *run)
{
  double threads = mg_report_value_compute (profile, THREADS_METRIC, MG_REPORT_PICK_MAX,
                                            MG_REPORT_PICK_MAX, NULL);
  guint n_helpers = mg_profile_get_n_helpers (profile);
  guint n = run->n_processes - n_helpers;
  g_autofree char *counted = g_strdup_printf (ngettext ("%u process", "%u processes", n), n);
  /* TRANSLATORS: "1 process and 3 helper processes" (a wrapper script, a shim's steps) */
  g_autofree char *processes = n_helpers == 0
                                 ? g_strdup (counted)
                                 : g_strdup_printf (ngettext ("%s and %u helper process",
                                                              "%s and %u helper processes",
                                                              n_helpers),
                                                    counted, n_helpers);
  g_autofree char *nodes = g_strdup_printf (ngettext ("%u node", "%u nodes", run->n_nodes),
                                            run->n_nodes);

  if (isnan (threads))
    /* TRANSLATORS: "4 processes, 1 node" */
    return g_strdup_printf (_("%s, %s"), processes, nodes);
  return g_strdup_printf (ngettext ("%s, %s, up to %u thread per process",
                                    "%s, %s, up to %u threads per process", (gulong) threads),
                          processes, nodes, (guint) threads);
}

static char *
start_time (const MgRunInfo *run)
{
  g_autoptr (GDateTime) time = g_date_time_new_from_unix_local (run->start_time_us
                                                                / G_USEC_PER_SEC);

  return time != NULL ? g_date_time_format (time, "%Y-%m-%d %H:%M:%S") : g_strdup ("");
}

static void
add_header (MgReport *report, MgProfile *profile, const char *profile_path)
{
  const MgRunInfo *run = mg_profile_get_run_info (profile);

  add_fact (report, _("Command"), mg_shell_line_from_run (run));
  add_fact (report, _("Resources"), resources (profile, run));
  add_fact (report, _("Hosts"), run->hosts != NULL ? g_strjoinv (", ", run->hosts)
                                                   : g_strdup (""));
  add_fact (report, _("Start"), start_time (run));
  add_fact (report, _("Wall-clock time"), mg_units_format_time (run->duration_s));
  if (profile_path != NULL)
    add_fact (report, _("Profile"), g_strdup (profile_path));
  if (g_strcmp0 (run->metrograph_version, MG_VERSION) == 0 || run->metrograph_version == NULL)
    add_fact (report, _("Metrograph"), g_strdup (MG_VERSION));
  else
    add_fact (report, _("Metrograph"),
              g_strdup_printf (_("%s (the profile was written by %s)"), MG_VERSION,
                               run->metrograph_version));
}

/* Each line against its own meaningful maximum: a percentage against
 * 100 % (or its peak, when a value goes past 100: a process of several
 * threads), anything else against the run's peak of the same quantity
 * (the same cross-process pick, its largest window), so a rate that is
 * small beside another line's is not drawn full, and one near its peak
 * is. */
static void
set_bars (GPtrArray *lines, GPtrArray *entries, MgProfile *profile)
{
  for (guint i = 0; i < lines->len; i++)
    {
      MgReportLine *line = g_ptr_array_index (lines, i);
      const MgReportMetric *metric = ((const MgReportEntry *) g_ptr_array_index (entries, i))->metric;
      gboolean percent = g_strcmp0 (metric->units, "%") == 0;
      double peak;

      if (isnan (line->value))
        continue;
      if (percent && fabs (line->value) <= 100.0)
        {
          mg_report_line_set_scale (line, 100.0, FALSE, "%");
          continue;
        }
      peak = mg_report_value_compute (profile, metric->metric_ref, metric->sample_value,
                                      MG_REPORT_PICK_MAX, NULL);
      mg_report_line_set_scale (line, MAX (isnan (peak) ? 0.0 : fabs (peak), fabs (line->value)),
                                TRUE, metric->units);
    }
}

/* Built-in sections show only what was recorded. */
static gboolean
any_recorded (GPtrArray *lines)
{
  for (guint i = 0; i < lines->len; i++)
    if (!isnan (((MgReportLine *) g_ptr_array_index (lines, i))->value))
      return TRUE;
  return FALSE;
}

/* A user's section of which nothing was recorded, in one line instead of
 * a line per metric that each says so: how many metrics, and their common
 * reason when they share one. */
static void
reduce_to_one_line (MgReportSection *section)
{
  guint n = section->lines->len;
  const MgReportLine *first = g_ptr_array_index (section->lines, 0);
  gboolean same = TRUE;
  g_autofree char *name = g_strdup_printf (ngettext ("%u metric", "%u metrics", n), n);

  for (guint i = 1; i < n && same; i++)
    same = g_strcmp0 (((MgReportLine *) g_ptr_array_index (section->lines, i))->value_text,
                      first->value_text) == 0;
  MgReportLine *line = mg_report_line_new (name, NAN, NULL,
                                           same ? first->value_text
                                                : _("none was recorded in this run"));
  g_ptr_array_set_size (section->lines, 0);
  g_ptr_array_add (section->lines, line);
  g_clear_pointer (&section->text, g_free);
}

/* The built-in CPU section says when the CPU mostly waited on the GPU. */
static void
add_gpu_wait_note (MgReportSection *section, MgProfile *profile)
{
  g_autofree char *note = mg_report_gpu_wait_note (profile);
  g_autofree char *escaped = NULL;
  char *text;

  if (note == NULL)
    return;
  escaped = g_markup_escape_text (note, -1);
  text = section->text != NULL ? g_strconcat (section->text, " ", escaped, NULL)
                               : g_steal_pointer (&escaped);
  g_free (section->text);
  section->text = text;
}

static void
add_subsection (MgReport *report, MgProfile *profile, const MgPartialReport *partial,
                const MgReportSubsection *subsection)
{
  MgReportSection *section = g_new0 (MgReportSection, 1);

  section->heading = g_strdup (subsection->heading);
  section->has_colour = subsection->has_colour;
  section->colour = subsection->colour;
  section->text = g_strdup (subsection->text);
  section->lines = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_report_line_free);
  for (guint i = 0; i < subsection->entries->len; i++)
    {
      const MgReportEntry *entry = g_ptr_array_index (subsection->entries, i);
      const MgReportMetric *metric = entry->metric;
      g_autofree char *why_not = NULL;
      double value = mg_report_value_compute (profile, metric->metric_ref, metric->sample_value,
                                              metric->aggregation, &why_not);
      MgReportLine *line = mg_report_line_new (metric->display_name, value, metric->units,
                                               why_not);

      line->tooltip = g_strdup (metric->tooltip);
      line->has_colour = metric->has_colour;
      line->colour = metric->colour;
      g_ptr_array_add (section->lines, line);
    }
  set_bars (section->lines, subsection->entries, profile);
  if (partial->builtin && g_strcmp0 (subsection->id, "mg_cpu") == 0)
    add_gpu_wait_note (section, profile);
  if (partial->builtin && !any_recorded (section->lines))
    {
      section_free (section);
      return;
    }
  if (section->lines->len > 1 && !any_recorded (section->lines))
    reduce_to_one_line (section);
  g_ptr_array_add (report->sections, section);
}

MgReport *
mg_report_new (MgProfile *profile, const char *profile_path, GPtrArray *partial_reports)
{
  return mg_report_new_named (profile, profile_path, partial_reports, NULL);
}

MgReport *
mg_report_new_named (MgProfile *profile, const char *profile_path, GPtrArray *partial_reports,
                     const MgStackNamer *namer)
{
  MgReport *report = g_new0 (MgReport, 1);

  g_return_val_if_fail (MG_IS_PROFILE (profile), report);
  report->facts = g_ptr_array_new_with_free_func ((GDestroyNotify) fact_free);
  report->summary = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_report_line_free);
  report->sections = g_ptr_array_new_with_free_func ((GDestroyNotify) section_free);
  add_header (report, profile, profile_path);
  mg_report_summarise (report, profile);
  for (guint r = 0; partial_reports != NULL && r < partial_reports->len; r++)
    {
      const MgPartialReport *partial = g_ptr_array_index (partial_reports, r);

      for (guint s = 0; s < partial->subsections->len; s++)
        add_subsection (report, profile, partial, g_ptr_array_index (partial->subsections, s));
    }
  mg_report_add_where (report, profile, namer);
  mg_report_add_mpi_sites (report, profile, namer);
  return report;
}

void
mg_report_free (MgReport *report)
{
  if (report == NULL)
    return;
  g_ptr_array_unref (report->facts);
  g_free (report->sentence);
  g_ptr_array_unref (report->summary);
  g_ptr_array_unref (report->sections);
  g_free (report);
}

static const MgReportLine *
find_line (GPtrArray *lines, const char *name)
{
  for (guint i = 0; lines != NULL && i < lines->len; i++)
    {
      const MgReportLine *line = g_ptr_array_index (lines, i);

      if (g_strcmp0 (line->name, name) == 0)
        return line;
    }
  return NULL;
}

static GPtrArray *
find_section_lines (const MgReport *report, const char *heading)
{
  for (guint i = 0; i < report->sections->len; i++)
    {
      const MgReportSection *section = g_ptr_array_index (report->sections, i);

      if (g_strcmp0 (section->heading, heading) == 0)
        return section->lines;
    }
  return NULL;
}

static void
compare_lines (GPtrArray *lines, GPtrArray *old_lines)
{
  for (guint i = 0; i < lines->len; i++)
    {
      MgReportLine *line = g_ptr_array_index (lines, i);
      const MgReportLine *old = find_line (old_lines, line->name);

      g_clear_pointer (&line->baseline_text, g_free);
      line->baseline = old != NULL ? old->value : NAN;
      line->baseline_text = g_strdup (old != NULL ? old->value_text
                                                  : _("not in the baseline's report"));
      line->change = !isnan (line->value) && !isnan (line->baseline) && line->baseline != 0
                       ? (line->value - line->baseline) / fabs (line->baseline) : NAN;
    }
}

void
mg_report_compare (MgReport *report, const MgReport *baseline, const char *baseline_path)
{
  g_return_if_fail (report != NULL && baseline != NULL);
  compare_lines (report->summary, baseline->summary);
  for (guint i = 0; i < report->sections->len; i++)
    {
      MgReportSection *section = g_ptr_array_index (report->sections, i);

      compare_lines (section->lines, find_section_lines (baseline, section->heading));
    }
  add_fact (report, _("Baseline"),
            g_strdup_printf (_("%s (changes under %.0f %% are within run-to-run noise and not "
                               "marked)"), baseline_path != NULL ? baseline_path : "",
                             MG_REPORT_NOISE * 100));
}

gboolean
mg_report_line_changed (const MgReportLine *line)
{
  return !isnan (line->change) && fabs (line->change) >= MG_REPORT_NOISE;
}
