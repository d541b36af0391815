/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The folded-stacks export. */
#include "mg-config.h"

#include <stdlib.h>
#include <string.h>

#include "mg-export-folded.h"
#include "mg-display-text.h"
#include "mg-export-writer.h"
#include "mg-profile-code.h"

void
mg_stack_frame_name_free (MgStackFrameName *name)
{
  if (name == NULL)
    return;
  g_free (name->function);
  g_free (name->file);
  g_free (name->label);
  g_free (name);
}

static MgStackFrameName *
fallback_name (char *label)
{
  MgStackFrameName *n = g_new0 (MgStackFrameName, 1);
  n->label = label;
  return n;
}

GPtrArray *
mg_stack_frame_names (const MgStackSet *set, const MgStackFrame *frame, gboolean return_address,
                      const MgStackNamer *namer)
{
  GPtrArray *names = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_stack_frame_name_free);
  if (frame->module == MG_STACK_MODULE_UNKNOWN || frame->module >= mg_stack_set_get_n_modules (set))
    {
      g_ptr_array_add (names, fallback_name (g_strdup_printf ("0x%" G_GINT64_MODIFIER "x",
                                                              frame->vaddr)));
      return names;
    }
  const MgStackModule *m = mg_stack_set_get_module (set, frame->module);
  /* A return address is looked up one byte back: the call may be its
   * function's last instruction. */
  guint64 at = return_address && frame->vaddr > 0 ? frame->vaddr - 1 : frame->vaddr;
  /* The names the profile carries first: they were resolved at the end
   * of the run, when the binaries were there. */
  if (mg_profile_name_stored_frame (mg_stack_set_get_profile (set), frame->module, at, names)
      || (namer != NULL && namer->func != NULL && !mg_stack_set_module_replaced (set, frame->module)
          && namer->func (namer->data, m->path, m->build_id, m->build_id_len, at, names)
          && names->len > 0))
    {
      /* The namer's order is innermost first; callers want outermost. */
      for (guint i = 0; i < names->len / 2; i++)
        {
          gpointer t = names->pdata[i];
          names->pdata[i] = names->pdata[names->len - 1 - i];
          names->pdata[names->len - 1 - i] = t;
        }
      return names;
    }
  g_ptr_array_set_size (names, 0);
  g_autofree char *base = g_path_get_basename (m->path);
  g_ptr_array_add (names, fallback_name (g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", base,
                                                          frame->vaddr)));
  return names;
}

/* A name as one folded frame, as flamegraph.pl, inferno and speedscope
 * split a line: ';' separates frames and a line ends the stack, so neither
 * may appear in it; the SVG they draw is XML, so the name is made valid
 * UTF-8 with its control characters written as escapes (\t, \x1b); and
 * a name ending in a space and a number ("f 42") read as a second count,
 * a differential graph's, when it is the stack's last frame: that space
 * is written '_' in every frame, so that a function has one name
 * wherever it appears. */
static void
append_frame (GString *line, const char *name)
{
  g_autofree char *shown = mg_display_one_line (name);
  gsize start, digits;

  if (line->len > 0)
    g_string_append_c (line, ';');
  start = line->len;
  for (const char *c = shown; *c; c++)
    g_string_append_c (line, *c == ';' ? ':' : *c);
  /* The number: digits, then optionally '.' and digits. */
  digits = line->len;
  while (digits > start && g_ascii_isdigit (line->str[digits - 1]))
    digits--;
  if (digits > start && line->str[digits - 1] == '.')
    {
      gsize point = digits - 1;
      while (point > start && g_ascii_isdigit (line->str[point - 1]))
        point--;
      if (point < digits - 1)
        digits = point;
    }
  if (digits < line->len && g_ascii_isdigit (line->str[digits]) && digits > start
      && line->str[digits - 1] == ' ')
    line->str[digits - 1] = '_';
}

static char *
folded_line (const MgStackSet *set, guint stack, const MgStackNamer *namer)
{
  guint n, flags;
  const MgStackFrame *frames = mg_stack_set_get_frames (set, stack, &n, &flags);
  GString *line = g_string_new (NULL);
  /* The walk's end is the outermost frame: say how it ended. */
  if (flags & MG_STACK_TRUNCATED)
    append_frame (line, "[truncated]");
  else if (flags & MG_STACK_UNKNOWN_FRAME)
    append_frame (line, "[unknown]");
  for (guint f = n; f-- > 0;)
    {
      g_autoptr (GPtrArray) names = mg_stack_frame_names (set, &frames[f], f > 0, namer);
      for (guint i = 0; i < names->len; i++)
        append_frame (line, ((MgStackFrameName *) g_ptr_array_index (names, i))->label);
    }
  return g_string_free (line, FALSE);
}

static int
compare_lines (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

gboolean
mg_export_folded (MgProfile *profile, const char *path, const gboolean *processes,
                  double start_s,
                  double end_s, const MgStackNamer *namer, GError **error)
{
  if (!mg_profile_read_stacks (profile, error))
    return FALSE;
  g_autoptr (MgStackSet) set = mg_stack_set_new_for_processes (profile, processes, start_s,
                                                                end_s);
  /* Stacks that name the same way (those that differ only in how their
   * walk ended, or, named, in addresses of one function) are one line. */
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint s = 0; s < mg_stack_set_get_n_stacks (set); s++)
    {
      guint64 count = mg_stack_set_get_count (set, s);
      if (count == 0)
        continue;
      char *line = folded_line (set, s, namer);
      guint64 *sum = g_hash_table_lookup (counts, line);
      if (sum != NULL)
        {
          *sum += count;
          g_free (line);
        }
      else
        g_hash_table_insert (counts, line, g_memdup2 (&count, sizeof count));
    }
  g_autofree gpointer *lines = g_hash_table_get_keys_as_array (counts, NULL);
  guint n = g_hash_table_size (counts);
  qsort (lines, n, sizeof *lines, compare_lines);

  MgExportWriter *w = mg_export_writer_new_for_path (path, error);
  if (w == NULL)
    return FALSE;
  for (guint i = 0; i < n; i++)
    mg_export_writer_printf (w, "%s %" G_GUINT64_FORMAT "\n", (const char *) lines[i],
                             *(guint64 *) g_hash_table_lookup (counts, lines[i]));
  return mg_export_writer_close (w, error);
}
