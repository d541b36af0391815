/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report's "Where the time went": the functions that the call-stack
 * samples were in, by self share (the innermost frame's function) and by
 * total share (anywhere in the stack, counted once per stack), with the
 * hottest source line of each. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mg-report.h"
#include "profile/mg-export-folded.h"
#include "profile/mg-profile-code.h"
#include "profile/mg-stack-set.h"

#define TOP_FUNCTIONS 10
/* Files left out of the profile's source text, listed at most. */
#define TOP_OMISSIONS 20

typedef struct {
  char *name;          /* the function, or module + offset */
  guint64 count;
  GHashTable *lines;   /* "file:line" → guint64 count */
} Function;

static void
function_free (gpointer data)
{
  Function *f = data;
  g_free (f->name);
  g_hash_table_unref (f->lines);
  g_free (f);
}

static Function *
function_for (GHashTable *functions, const char *name)
{
  Function *f = g_hash_table_lookup (functions, name);
  if (f == NULL)
    {
      f = g_new0 (Function, 1);
      f->name = g_strdup (name);
      f->lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_insert (functions, f->name, f);
    }
  return f;
}

static void
count_line (Function *f, const MgStackFrameName *name, guint64 count)
{
  if (name->file == NULL || name->line == 0)
    return;
  g_autofree char *base = g_path_get_basename (name->file);
  char *key = g_strdup_printf ("%s:%u", base, name->line);
  guint64 *sum = g_hash_table_lookup (f->lines, key);
  if (sum == NULL)
    g_hash_table_insert (f->lines, key, sum = g_new0 (guint64, 1));
  else
    g_free (key);
  *sum += count;
}

/* The line a function's samples fell on most often (ties: the first in
 * byte order, so that the report is the same every time), or NULL. */
static const char *
hottest_line (const Function *f)
{
  const char *best = NULL;
  guint64 best_count = 0;
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, f->lines);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint64 c = *(guint64 *) value;
      if (c > best_count || (c == best_count && best != NULL && strcmp (key, best) < 0))
        {
          best = key;
          best_count = c;
        }
    }
  return best;
}

static int
by_count (gconstpointer a, gconstpointer b)
{
  const Function *fa = *(Function *const *) a, *fb = *(Function *const *) b;
  if (fa->count != fb->count)
    return fa->count < fb->count ? 1 : -1;
  return strcmp (fa->name, fb->name);
}

static void add_sources_left_out (MgReport *report, MgProfile *profile);

static MgReportSection *
section_of (const char *heading, const char *text, GHashTable *functions, guint64 total)
{
  MgReportSection *section = g_new0 (MgReportSection, 1);
  section->heading = g_strdup (heading);
  section->text = g_markup_escape_text (text, -1);
  section->lines = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_report_line_free);
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, functions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (all, value);
  g_ptr_array_sort (all, by_count);
  for (guint i = 0; i < all->len && i < TOP_FUNCTIONS; i++)
    {
      const Function *f = g_ptr_array_index (all, i);
      const char *where = hottest_line (f);
      g_autofree char *name = where != NULL ? g_strdup_printf ("%s (%s)", f->name, where)
                                            : g_strdup (f->name);
      MgReportLine *line = mg_report_line_new (name, 100.0 * (double) f->count / (double) total,
                                               "%", NULL);
      mg_report_line_set_scale (line, 100.0, FALSE, "%");
      g_ptr_array_add (section->lines, line);
    }
  return section;
}

void
mg_report_add_where (MgReport *report, MgProfile *profile, const MgStackNamer *namer)
{
  g_autoptr (MgStackSet) set = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  guint64 total = mg_stack_set_get_total (set);
  if (total == 0)
    return;
  g_autoptr (GHashTable) self = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                       function_free);
  g_autoptr (GHashTable) inclusive = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                            function_free);
  for (guint s = 0; s < mg_stack_set_get_n_stacks (set); s++)
    {
      guint64 count = mg_stack_set_get_count (set, s);
      guint n, flags;
      const MgStackFrame *frames = mg_stack_set_get_frames (set, s, &n, &flags);
      if (count == 0 || n == 0)
        continue;
      /* Each function once per stack, however often it recurs. */
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint k = 0; k < n; k++)
        {
          g_autoptr (GPtrArray) names = mg_stack_frame_names (set, &frames[k], k > 0, namer);
          /* Outermost first: the innermost (inlined) function is last. */
          for (guint i = names->len; i-- > 0;)
            {
              const MgStackFrameName *name = g_ptr_array_index (names, i);
              if (k == 0 && i == names->len - 1)
                {
                  Function *f = function_for (self, name->label);
                  f->count += count;
                  count_line (f, name, count);
                }
              Function *f = function_for (inclusive, name->label);
              count_line (f, name, count);
              if (g_hash_table_contains (seen, f->name))
                continue;
              g_hash_table_add (seen, f->name);
              f->count += count;
            }
        }
    }
  g_autofree char *text_self = g_strdup_printf (
    ngettext ("The functions the %lu call-stack sample was taken in, "
              "by their share of the samples, with the line most of them were on.",
              "The functions the %lu call-stack samples were taken in, "
              "by their share of the samples, with the line most of them were on.",
              (unsigned long) total), (unsigned long) total);
  g_autofree char *text_total = g_strdup_printf (
    ngettext ("The functions in the stacks of the %lu call-stack sample, "
              "with what they called: their share of the samples.",
              "The functions in the stacks of the %lu call-stack samples, "
              "with what they called: their share of the samples.",
              (unsigned long) total), (unsigned long) total);
  g_ptr_array_add (report->sections,
                   section_of (_("Where the time went: self"), text_self, self, total));
  g_ptr_array_add (report->sections,
                   section_of (_("Where the time went: total"), text_total, inclusive, total));
  add_sources_left_out (report, profile);
}

/* The source files whose sampled lines the profile cannot show: left out
 * of its source text (too large for what was left of the bound, not
 * readable, not text), each with why. */
static void
add_sources_left_out (MgReport *report, MgProfile *profile)
{
  guint n = mg_profile_get_n_source_omissions (profile);
  guint kept = mg_profile_get_n_sources (profile);
  if (n == 0)
    return;
  g_autofree char *size =
    g_format_size_full (mg_profile_get_sources_size (profile), G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *limit =
    g_format_size_full (mg_profile_get_source_limit (profile), G_FORMAT_SIZE_IEC_UNITS);
  /* Translators: the first %u counts files kept, %s their size, then the bound */
  g_autofree char *kept_text = g_strdup_printf (
    ngettext ("The profile keeps the text of %u source file (%s of at most %s) for the lines "
              "its samples were on.", "The profile keeps the text of %u source files (%s of at "
              "most %s) for the lines its samples were on.", kept), kept, size, limit);
  g_autofree char *left_text = g_strdup_printf (
    ngettext ("%u file that holds sampled lines is not in it:",
              "%u files that hold sampled lines are not in it:", n), n);
  g_autofree char *text = g_strdup_printf ("%s %s", kept_text, left_text);
  MgReportSection *section = g_new0 (MgReportSection, 1);
  section->heading = g_strdup (_("Source text left out"));
  section->text = g_markup_escape_text (text, -1);
  section->lines = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_report_line_free);
  for (guint i = 0; i < n && i < TOP_OMISSIONS; i++)
    {
      const char *reason = NULL;
      const char *path = mg_profile_get_source_omission (profile, i, &reason);
      g_autofree char *shown = g_utf8_make_valid (path, -1);
      g_ptr_array_add (section->lines, mg_report_line_new (shown, NAN, NULL, reason));
    }
  if (n > TOP_OMISSIONS)
    {
      g_autofree char *more = g_strdup_printf (ngettext ("and %u more file", "and %u more files",
                                                         n - TOP_OMISSIONS), n - TOP_OMISSIONS);
      g_ptr_array_add (section->lines, mg_report_line_new (more, NAN, NULL, ""));
    }
  g_ptr_array_add (report->sections, section);
}
