/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report's "Where the time went": the functions that the call-stack
 * samples were in, by self share (the innermost frame's function) and by
 * total share (anywhere in the stack, counted once per stack), with the
 * hottest source line of each; for several processes, each function's
 * share of every process's samples across them (mean, and the process
 * of the max and the min). */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mg-report.h"
#include "profile/mg-export-folded.h"
#include "profile/mg-function-order.h"
#include "profile/mg-hot-line.h"
#include "profile/mg-process-spread.h"
#include "profile/mg-profile-code.h"
#include "profile/mg-stack-set.h"

#define TOP_FUNCTIONS 10
/* Files left out of the profile's source text, listed at most. */
#define TOP_OMISSIONS 20
/* "Code without symbols" from this share (per cent) of the samples
 * taken where no symbol names the code: a few in the vDSO or a
 * trampoline are no reason to install anything. */
#define MIN_UNNAMED_SHARE 5.0

typedef struct {
  char *name;          /* the function, or module + offset */
  guint64 count;
  guint height;        /* most frames below it in a stack (inlined ones too) */
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

/* COUNT samples on NAME's line in F, once per stack (SEEN: the lines
 * this stack counted already, however often a recursion passes them);
 * OWN: the stack's innermost frame, F's own samples. */
static void
count_line (Function *f, const MgStackFrameName *name, guint64 count, gboolean own,
            GHashTable *seen)
{
  if (name->file == NULL || name->line == 0)
    return;
  g_autofree char *base = g_path_get_basename (name->file);
  char *key = g_strdup_printf ("%s:%u", base, name->line);
  MgHotLine *sum = g_hash_table_lookup (f->lines, key);
  if (sum != NULL)
    g_free (key);
  else
    {
      sum = g_new0 (MgHotLine, 1);
      sum->line = name->line;
      g_hash_table_insert (f->lines, key, sum);
    }
  if (own)
    sum->self += count;
  if (g_hash_table_add (seen, sum))
    sum->total += count;
}

/* A function's line by the views' rule (mg-hot-line.h; lines of one
 * number in two files, with as many samples: the first file in byte
 * order), or NULL. */
static const char *
hottest_line (const Function *f)
{
  const char *best = NULL;
  MgHotLine none = { 0 };
  const MgHotLine *best_sum = &none;
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, f->lines);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const MgHotLine *c = value;
      gboolean same = best != NULL && c->self == best_sum->self && c->total == best_sum->total
                      && c->line == best_sum->line;
      if (mg_hot_line_beats (c, best_sum) || (same && strcmp (key, best) < 0))
        {
          best = key;
          best_sum = c;
        }
    }
  return best;
}

/* The order of every list of functions (mg-function-order.h), the
 * window's Functions table's too: by count, ties callers first, as the
 * chain reads (_start, main, solve), then by name. */
static int
by_count (gconstpointer a, gconstpointer b)
{
  const Function *fa = *(Function *const *) a, *fb = *(Function *const *) b;
  MgFunctionOrderKey ka = { fa->count, fa->height, fa->name };
  MgFunctionOrderKey kb = { fb->count, fb->height, fb->name };
  return mg_function_order_compare (&ka, &kb);
}

static void add_sources_left_out (MgReport *report, MgProfile *profile);

/* "Code without symbols": how many samples were taken in code that no
 * symbol names (a stripped module without its debug symbols, generated
 * code), by module, and what to do; nothing under MIN_UNNAMED_SHARE. A
 * stripped binary's Functions are each address apart ("liblzma.so.5+0x1692b",
 * "+0x15bc9", …): without this the report never said why, nor what
 * would name them. */
static void
add_unnamed (MgReport *report, GHashTable *unnamed, guint64 total)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  guint64 sum = 0;
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, unnamed);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_ptr_array_add (all, value);
      sum += ((Function *) value)->count;
    }
  double share = 100.0 * (double) sum / (double) total;
  if (share < MIN_UNNAMED_SHARE)
    return;
  g_ptr_array_sort (all, by_count);
  /* Translators: %.1f %% is a share of the call-stack samples, e.g. 66.2 % */
  g_autofree char *text = g_strdup_printf (
    _("%.1f %% of the call-stack samples were taken in code that no symbol names, shown as "
      "module+address (each address apart). Install the debug symbols of these modules (on "
      "Debian their -dbgsym packages, or set DEBUGINFOD_URLS) and open the profile again; "
      "for a program of your own, build it with -g, do not strip it, and profile it again."),
    share);
  MgReportSection *section = g_new0 (MgReportSection, 1);
  section->heading = g_strdup (_("Code without symbols"));
  section->text = g_markup_escape_text (text, -1);
  section->lines = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_report_line_free);
  for (guint i = 0; i < all->len && i < TOP_FUNCTIONS; i++)
    {
      const Function *f = g_ptr_array_index (all, i);
      g_autofree char *base = *f->name != '\0' ? g_path_get_basename (f->name) : NULL;
      g_autofree char *shown = base != NULL ? g_utf8_make_valid (base, -1)
                                            : g_strdup (_("outside every module"));
      MgReportLine *line = mg_report_line_new (shown, 100.0 * (double) f->count / (double) total,
                                               "%", NULL);
      mg_report_line_set_scale (line, 100.0, FALSE, "%");
      g_ptr_array_add (section->lines, line);
    }
  g_ptr_array_add (report->sections, section);
}

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

/* The names of a frame, each (module, address, leaf or not) asked of the
 * namer once however many processes' stacks hold it: the sets of one
 * profile share its module table. */
static GPtrArray *
frame_names (GHashTable *cache, MgStackSet *set, const MgStackFrame *frame, gboolean return_address,
             const MgStackNamer *namer)
{
  struct {
    guint64 vaddr;
    guint32 module, return_address;
  } key = { frame->vaddr, frame->module, return_address };
  g_autoptr (GBytes) bytes = g_bytes_new (&key, sizeof key);
  GPtrArray *names = g_hash_table_lookup (cache, bytes);
  if (names == NULL)
    {
      names = mg_stack_frame_names (set, frame, return_address, namer);
      g_hash_table_insert (cache, g_bytes_ref (bytes), names);
    }
  return names;
}

static GHashTable *
frame_cache_new (void)
{
  return g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                (GDestroyNotify) g_ptr_array_unref);
}

/* The samples of a stack whose innermost frame nothing names, into
 * unnamed by the frame's module ("" outside every module). */
static void
count_unnamed (GHashTable *unnamed, MgStackSet *set, const MgStackFrame *frame, guint64 count)
{
  const char *module = "";
  if (frame->module != MG_STACK_MODULE_UNKNOWN && frame->module < mg_stack_set_get_n_modules (set))
    module = mg_stack_set_get_module (set, frame->module)->path;
  Function *f = function_for (unnamed, module);
  f->count += count;
}

/* Each stack of set into self (its innermost function) and inclusive
 * (every function in it, once per stack), by label; unnamed (may be
 * NULL): the stacks whose innermost code no symbol names, by module. */
static void
count_stacks (MgStackSet *set, const MgStackNamer *namer, GHashTable *cache, GHashTable *self,
              GHashTable *inclusive, GHashTable *unnamed)
{
  for (guint s = 0; s < mg_stack_set_get_n_stacks (set); s++)
    {
      guint64 count = mg_stack_set_get_count (set, s);
      guint n, flags;
      const MgStackFrame *frames = mg_stack_set_get_frames (set, s, &n, &flags);
      if (count == 0 || n == 0)
        continue;
      /* Each function once per stack, however often it recurs. */
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
      /* Each line of a function once per stack. */
      g_autoptr (GHashTable) seen_lines = g_hash_table_new (NULL, NULL);
      guint below = 0;   /* names of the frames inside frame k */
      for (guint k = 0; k < n; k++)
        {
          GPtrArray *names = frame_names (cache, set, &frames[k], k > 0, namer);
          /* Outermost first: the innermost (inlined) function is last. */
          for (guint i = names->len; i-- > 0;)
            {
              const MgStackFrameName *name = g_ptr_array_index (names, i);
              if (k == 0 && i == names->len - 1)
                {
                  Function *f = function_for (self, name->label);
                  f->count += count;
                  count_line (f, name, count, TRUE, seen_lines);
                  if (unnamed != NULL && name->function == NULL)
                    count_unnamed (unnamed, set, &frames[0], count);
                }
              Function *f = function_for (inclusive, name->label);
              f->height = MAX (f->height, below + (names->len - 1 - i));
              count_line (f, name, count, k == 0 && i == names->len - 1, seen_lines);
              if (g_hash_table_contains (seen, f->name))
                continue;
              g_hash_table_add (seen, f->name);
              f->count += count;
            }
          below += names->len;
        }
    }
}

static GHashTable *
functions_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, NULL, function_free);
}

/* "rank 3", or "pid 1234" for a process that is no MPI rank. */
static char *
describe_process (MgProfile *profile, guint process)
{
  const MgProcessInfo *info = mg_profile_get_process (profile, process);
  if (info->rank >= 0)
    return g_strdup_printf (_("rank %d"), info->rank);
  return g_strdup_printf (_("pid %d"), info->pid);
}

typedef struct {
  const char *name;
  MgSpreadFigures figures;
} Spread;

static int
by_mean (gconstpointer a, gconstpointer b)
{
  const Spread *sa = a, *sb = b;
  if (sa->figures.mean != sb->figures.mean)
    return sa->figures.mean < sb->figures.mean ? 1 : -1;
  return strcmp (sa->name, sb->name);
}

/* "Where the time went: across processes": the functions with the largest
 * mean share of a process's samples, each with the process of its max
 * and min (an MPI wait shows which rank waited: the others were late);
 * nothing for fewer than two processes with samples. */
static MgReportSection *
spread_section (MgProfile *profile, const MgStackNamer *namer, GHashTable *cache)
{
  g_autoptr (MgProcessSpread) spread = mg_process_spread_new ();
  g_autoptr (GHashTable) keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      g_autoptr (MgStackSet) set = mg_stack_set_new (profile, (int) p, -INFINITY, INFINITY);
      guint64 total = mg_stack_set_get_total (set);
      if (total == 0)
        continue;
      g_autoptr (GHashTable) self = functions_new ();
      g_autoptr (GHashTable) inclusive = functions_new ();
      count_stacks (set, namer, cache, self, inclusive, NULL);
      mg_process_spread_begin_process (spread, p, total);
      GHashTableIter iter;
      gpointer value;
      g_hash_table_iter_init (&iter, inclusive);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          const Function *f = value;
          const Function *own = g_hash_table_lookup (self, f->name);
          gpointer key;
          if (!g_hash_table_lookup_extended (keys, f->name, NULL, &key))
            {
              key = GUINT_TO_POINTER (g_hash_table_size (keys));
              g_hash_table_insert (keys, g_strdup (f->name), key);
            }
          mg_process_spread_add (spread, GPOINTER_TO_UINT (key), own ? own->count : 0, f->count);
        }
    }
  mg_process_spread_finish (spread);
  guint n = mg_process_spread_get_n_processes (spread);
  if (n < 2)
    return NULL;

  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (Spread));
  GHashTableIter iter;
  gpointer name, key;
  g_hash_table_iter_init (&iter, keys);
  while (g_hash_table_iter_next (&iter, &name, &key))
    {
      Spread s = { name, { 0 } };
      mg_process_spread_get (spread, GPOINTER_TO_UINT (key), MG_SPREAD_TOTAL, &s.figures);
      g_array_append_val (all, s);
    }
  g_array_sort (all, by_mean);

  MgReportSection *section = g_new0 (MgReportSection, 1);
  section->heading = g_strdup (_("Where the time went: across processes"));
  g_autofree char *text = g_strdup_printf (
    ngettext ("The functions in the stacks of each of the %u process, by their mean share of "
              "a process's samples, with the processes of the largest and smallest share.",
              "The functions in the stacks of each of the %u processes, by their mean share of "
              "a process's samples, with the processes of the largest and smallest share.", n),
    n);
  section->text = g_markup_escape_text (text, -1);
  section->lines = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_report_line_free);
  for (guint i = 0; i < all->len && i < TOP_FUNCTIONS; i++)
    {
      const Spread *s = &g_array_index (all, Spread, i);
      g_autofree char *max_who = describe_process (profile, s->figures.max_process);
      g_autofree char *min_who = describe_process (profile, s->figures.min_process);
      /* Translators: a function across processes, e.g. "MPI_Barrier: mean
       * 48.0 %, max 97.0 % on rank 3, min 2.0 % on rank 0"; %% is the
       * percent sign */
      g_autofree char *line_name = g_strdup_printf (
        _("%s: mean %.1f %%, max %.1f %% on %s, min %.1f %% on %s"), s->name, s->figures.mean,
        s->figures.max, max_who, s->figures.min, min_who);
      MgReportLine *line = mg_report_line_new (line_name, s->figures.mean, "%", NULL);
      mg_report_line_set_scale (line, 100.0, FALSE, "%");
      g_ptr_array_add (section->lines, line);
    }
  return section;
}

/* Stacks a damaged file could not give: the section says so, the rest of
 * the report stands. */
static void
add_stacks_damaged (MgReport *report, const GError *error)
{
  MgReportSection *section = g_new0 (MgReportSection, 1);
  section->heading = g_strdup (_("Where the time went"));
  section->text = g_markup_escape_text (error->message, -1);
  section->lines = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_report_line_free);
  g_ptr_array_add (report->sections, section);
}

void
mg_report_add_where (MgReport *report, MgProfile *profile, const MgStackNamer *namer)
{
  g_autoptr (GError) error = NULL;
  if (!mg_profile_read_stacks (profile, &error))
    {
      add_stacks_damaged (report, error);
      return;
    }
  g_autoptr (MgStackSet) set = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  guint64 total = mg_stack_set_get_total (set);
  if (total == 0)
    return;
  g_autoptr (GHashTable) self = functions_new ();
  g_autoptr (GHashTable) inclusive = functions_new ();
  g_autoptr (GHashTable) cache = frame_cache_new ();
  g_autoptr (GHashTable) unnamed = functions_new ();
  count_stacks (set, namer, cache, self, inclusive, unnamed);
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
  MgReportSection *across = spread_section (profile, namer, cache);
  if (across != NULL)
    g_ptr_array_add (report->sections, across);
  add_unnamed (report, unnamed, total);
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
