/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-line-figures.h"

#include <math.h>

typedef struct {
  guint64 vaddr;
  guint32 module;
} FrameKey;

/* The lines of FILE an address names, innermost first; first_line the
 * innermost entry's when it is in FILE, else 0. */
typedef struct {
  guint first_line;
  guint n;
  guint lines[];
} FrameLines;

typedef struct {
  MgLineFigure figure;
  guint64 stamp;       /* the last stack counted in total, + 1 */
} Line;

struct _MgLineFigures {
  char *file;
  MgFrameNameFunc func;
  gpointer user_data;
  double start_s, end_s;
  guint n_bins;
  GHashTable *frames;  /* FrameKey → FrameLines */
  GHashTable *by_line; /* line → index into lines + 1, until finished */
  GArray *lines;       /* Line */
  GArray *hits;        /* scratch: indices into lines of one stack */
  guint64 *bin_totals;
  guint64 n_stacks;
  guint64 total;
};

static guint
frame_key_hash (gconstpointer p)
{
  const FrameKey *k = p;
  guint64 v = k->vaddr * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) + k->module;
  return (guint) (v ^ (v >> 32));
}

static gboolean
frame_key_equal (gconstpointer a, gconstpointer b)
{
  const FrameKey *x = a, *y = b;
  return x->vaddr == y->vaddr && x->module == y->module;
}

static void
line_clear (gpointer p)
{
  g_free (((Line *) p)->figure.bins);
}

MgLineFigures *
mg_line_figures_new (const char *file, MgFrameNameFunc func, gpointer user_data, double start_s,
                     double end_s, guint n_bins)
{
  MgLineFigures *self = g_new0 (MgLineFigures, 1);

  self->file = g_strdup (file);
  self->func = func;
  self->user_data = user_data;
  self->start_s = start_s;
  self->end_s = end_s;
  self->n_bins = MAX (n_bins, 1);
  self->bin_totals = g_new0 (guint64, self->n_bins);
  self->frames = g_hash_table_new_full (frame_key_hash, frame_key_equal, g_free, g_free);
  self->by_line = g_hash_table_new (NULL, NULL);
  self->lines = g_array_new (FALSE, TRUE, sizeof (Line));
  g_array_set_clear_func (self->lines, line_clear);
  self->hits = g_array_new (FALSE, FALSE, sizeof (guint));
  return self;
}

void
mg_line_figures_free (MgLineFigures *self)
{
  if (!self)
    return;
  g_free (self->file);
  g_free (self->bin_totals);
  g_hash_table_destroy (self->frames);
  g_clear_pointer (&self->by_line, g_hash_table_destroy);
  g_array_unref (self->lines);
  g_array_unref (self->hits);
  g_free (self);
}

static FrameLines *
name_frame (MgLineFigures *self, const MgStackModule *module, guint64 lookup)
{
  MgFrameNameEntry entries[MG_FRAME_NAMER_MAX_INLINE] = { 0 };
  guint n = self->func (module, lookup, entries, G_N_ELEMENTS (entries), self->user_data);
  FrameLines *fl;

  n = MIN (n, G_N_ELEMENTS (entries));
  fl = g_malloc0 (sizeof *fl + MAX (n, 1) * sizeof (guint));
  for (guint i = 0; i < n; i++)
    if (entries[i].line > 0 && g_strcmp0 (entries[i].file, self->file) == 0)
      {
        if (i == 0)
          fl->first_line = entries[i].line;
        fl->lines[fl->n++] = entries[i].line;
      }
  return fl;
}

/* Where a stack's module indices point: a stack set's table or an array. */
typedef struct {
  const MgStackSet *set;
  const MgStackModule *modules;
  guint n_modules;
} Modules;

static const MgStackModule *
module_of (const Modules *m, guint32 index)
{
  if (index == MG_STACK_MODULE_UNKNOWN)
    return NULL;
  if (m->set)
    return index < mg_stack_set_get_n_modules (m->set) ? mg_stack_set_get_module (m->set, index)
                                                         : NULL;
  return m->modules && index < m->n_modules ? &m->modules[index] : NULL;
}

static const FrameLines *
frame_lines (MgLineFigures *self, const Modules *modules, const MgStackFrame *frame,
             gboolean leaf)
{
  /* A return address points after the call: the call's line is one
   * byte earlier (as the frame namer looks it up). */
  FrameKey key = { .vaddr = leaf || frame->vaddr == 0 ? frame->vaddr : frame->vaddr - 1,
                   .module = frame->module };
  FrameLines *fl = g_hash_table_lookup (self->frames, &key);

  if (fl)
    return fl;
  fl = name_frame (self, module_of (modules, frame->module), key.vaddr);
  g_hash_table_insert (self->frames, g_memdup2 (&key, sizeof key), fl);
  return fl;
}

static guint
line_index (MgLineFigures *self, guint line)
{
  gpointer found = g_hash_table_lookup (self->by_line, GUINT_TO_POINTER (line));
  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  Line l = { .figure = { .line = line, .bins = g_new0 (guint64, self->n_bins) } };
  g_array_append_val (self->lines, l);
  g_hash_table_insert (self->by_line, GUINT_TO_POINTER (line),
                       GUINT_TO_POINTER (self->lines->len));
  return self->lines->len - 1;
}

static guint
bin_of (const MgLineFigures *self, double window_start, double window_end)
{
  double middle = (window_start + window_end) / 2;
  double span = self->end_s - self->start_s;
  if (!(span > 0) || !isfinite (middle))
    return 0;
  double b = floor ((middle - self->start_s) / span * self->n_bins);
  return (guint) CLAMP (b, 0, self->n_bins - 1);
}

/* The lines of FILE a stack passes, each once, into self->hits (indices
 * into lines); *SELF_LINE the index of its innermost frame's line, or
 * G_MAXUINT. */
static void
stack_hits (MgLineFigures *self, const Modules *modules, const MgStackFrame *frames,
            guint n_frames, guint *self_line)
{
  *self_line = G_MAXUINT;
  g_array_set_size (self->hits, 0);
  self->n_stacks++;
  for (guint f = 0; f < n_frames; f++)
    {
      const FrameLines *fl = frame_lines (self, modules, &frames[f], f == 0);
      if (f == 0 && fl->first_line > 0)
        *self_line = line_index (self, fl->first_line);
      /* A line twice in a stack (a recursion, a loop of inlined calls)
       * counts the stack once. */
      for (guint i = 0; i < fl->n; i++)
        {
          guint index = line_index (self, fl->lines[i]);
          Line *l = &g_array_index (self->lines, Line, index);
          if (l->stamp == self->n_stacks)
            continue;
          l->stamp = self->n_stacks;
          g_array_append_val (self->hits, index);
        }
    }
}

static void
add_hits (MgLineFigures *self, const guint *hits, guint n_hits, guint self_line, guint64 count,
          double window_start, double window_end, gboolean totals)
{
  guint bin = bin_of (self, window_start, window_end);

  if (totals)
    {
      self->total += count;
      self->bin_totals[bin] += count;
    }
  if (self_line != G_MAXUINT)
    g_array_index (self->lines, Line, self_line).figure.self += count;
  for (guint i = 0; i < n_hits; i++)
    {
      MgLineFigure *f = &g_array_index (self->lines, Line, hits[i]).figure;
      f->total += count;
      f->bins[bin] += count;
    }
}

void
mg_line_figures_add_stack (MgLineFigures *self, const MgStackSet *set, const MgStackFrame *frames,
                           guint n_frames, guint64 count, double window_start, double window_end)
{
  mg_line_figures_add_windows (self, set, frames, n_frames, &count, &window_start, &window_end, 1);
}

static void
add_windows (MgLineFigures *self, const Modules *modules, const MgStackFrame *frames,
             guint n_frames, const guint64 *counts, const double *window_starts,
             const double *window_ends, guint n_windows, gboolean totals)
{
  guint self_line = G_MAXUINT;

  g_return_if_fail (self->by_line != NULL);  /* not after mg_line_figures_finish () */
  if (n_frames > 0)
    stack_hits (self, modules, frames, n_frames, &self_line);
  else
    g_array_set_size (self->hits, 0);
  for (guint w = 0; w < n_windows; w++)
    add_hits (self, (const guint *) self->hits->data, self->hits->len, self_line, counts[w],
              window_starts[w], window_ends[w], totals);
}

void
mg_line_figures_add_windows (MgLineFigures *self, const MgStackSet *set,
                             const MgStackFrame *frames, guint n_frames, const guint64 *counts,
                             const double *window_starts, const double *window_ends,
                             guint n_windows)
{
  Modules modules = { set, NULL, 0 };

  add_windows (self, &modules, frames, n_frames, counts, window_starts, window_ends, n_windows,
               TRUE);
}

/* A stack comes back in window after window: its lines are found once,
 * kept here. */
typedef struct {
  GArray *hits;     /* guint: each stack's line indices, one after the other */
  guint *start;     /* by stack: into hits, G_MAXUINT until found */
  guint *n;
  guint *self_line;
} Memo;

void
mg_line_figures_add_stack_windows (MgLineFigures *self, const MgStackSet *set,
                                   const MgStackWindows *windows, double start_s, double end_s)
{
  guint n_frames, n_stacks = mg_stack_windows_get_n_stacks (windows);
  guint n_counts = mg_stack_windows_get_n_counts (windows);
  Modules modules = { set, NULL, 0 };
  Memo memo = { g_array_new (FALSE, FALSE, sizeof (guint)), g_new (guint, MAX (n_stacks, 1)),
                g_new (guint, MAX (n_stacks, 1)), g_new (guint, MAX (n_stacks, 1)) };

  g_return_if_fail (self->by_line != NULL);  /* not after mg_line_figures_finish () */
  for (guint s = 0; s < n_stacks; s++)
    memo.start[s] = G_MAXUINT;
  for (guint i = 0; i < n_counts; i++)
    {
      const MgStackWindowCount *c = mg_stack_windows_get_count (windows, i);
      guint s = c->stack;
      /* The windows that overlap the range, as a stack set's. */
      if (!(c->end_s > start_s && c->start_s < end_s))
        continue;
      if (memo.start[s] == G_MAXUINT)
        {
          const MgStackFrame *frames = mg_stack_windows_get_frames (windows, s, &n_frames);
          memo.self_line[s] = G_MAXUINT;
          g_array_set_size (self->hits, 0);
          if (n_frames > 0)
            stack_hits (self, &modules, frames, n_frames, &memo.self_line[s]);
          memo.start[s] = memo.hits->len;
          memo.n[s] = self->hits->len;
          g_array_append_vals (memo.hits, self->hits->data, self->hits->len);
        }
      add_hits (self, &g_array_index (memo.hits, guint, memo.start[s]), memo.n[s],
                memo.self_line[s], c->count, c->start_s, c->end_s, TRUE);
    }
  g_array_unref (memo.hits);
  g_free (memo.start);
  g_free (memo.n);
  g_free (memo.self_line);
}

const guint *
mg_line_figures_name_address (MgLineFigures *self, const MgStackModule *module,
                              guint32 module_index, guint64 lookup_vaddr, guint *n_lines,
                              guint *first_line)
{
  FrameKey key = { .vaddr = lookup_vaddr, .module = module_index };
  FrameLines *fl = g_hash_table_lookup (self->frames, &key);

  if (fl == NULL)
    {
      fl = name_frame (self, module, lookup_vaddr);
      g_hash_table_insert (self->frames, g_memdup2 (&key, sizeof key), fl);
    }
  *n_lines = fl->n;
  *first_line = fl->first_line;
  return fl->lines;
}

guint
mg_line_figures_line_index (MgLineFigures *self, guint line)
{
  g_return_val_if_fail (self->by_line != NULL, 0);  /* not after mg_line_figures_finish () */
  return line_index (self, line);
}

guint
mg_line_figures_get_bin (const MgLineFigures *self, double window_start, double window_end)
{
  return bin_of (self, window_start, window_end);
}

void
mg_line_figures_add_to_totals (MgLineFigures *self, const guint64 *bins)
{
  for (guint b = 0; b < self->n_bins; b++)
    {
      self->bin_totals[b] += bins[b];
      self->total += bins[b];
    }
}

void
mg_line_figures_add_to_line (MgLineFigures *self, guint index, guint64 self_samples,
                             guint64 total, const guint64 *bins)
{
  g_return_if_fail (index < self->lines->len);
  MgLineFigure *f = &g_array_index (self->lines, Line, index).figure;

  f->self += self_samples;
  f->total += total;
  for (guint b = 0; bins && b < self->n_bins; b++)
    f->bins[b] += bins[b];
}

static int
compare_lines (gconstpointer a, gconstpointer b)
{
  guint x = ((const Line *) a)->figure.line, y = ((const Line *) b)->figure.line;
  return x < y ? -1 : x > y;
}

void
mg_line_figures_finish (MgLineFigures *self)
{
  /* A line passed only by stacks counted 0 times has no samples. */
  for (guint i = self->lines->len; i-- > 0;)
    if (g_array_index (self->lines, Line, i).figure.total == 0)
      g_array_remove_index_fast (self->lines, i);
  g_array_sort (self->lines, compare_lines);
  for (guint i = 0; i < self->lines->len; i++)
    {
      MgLineFigure *f = &g_array_index (self->lines, Line, i).figure;
      f->hot = mg_line_figures_share (self, f->total) >= MG_LINE_FIGURES_HOT_SHARE;
    }
  /* Finished: the lines are found by their order from now on. */
  g_clear_pointer (&self->by_line, g_hash_table_destroy);
}

const char *
mg_line_figures_get_file (const MgLineFigures *self)
{
  return self->file;
}

guint64
mg_line_figures_get_total (const MgLineFigures *self)
{
  return self->total;
}

guint
mg_line_figures_get_n_bins (const MgLineFigures *self)
{
  return self->n_bins;
}

const guint64 *
mg_line_figures_get_bin_totals (const MgLineFigures *self)
{
  return self->bin_totals;
}

guint
mg_line_figures_get_n_lines (const MgLineFigures *self)
{
  return self->lines->len;
}

const MgLineFigure *
mg_line_figures_get_line (const MgLineFigures *self, guint i)
{
  g_return_val_if_fail (i < self->lines->len, NULL);
  return &g_array_index (self->lines, Line, i).figure;
}

const MgLineFigure *
mg_line_figures_lookup (const MgLineFigures *self, guint line)
{
  guint lo = 0, hi = self->lines->len;

  g_return_val_if_fail (self->by_line == NULL, NULL);  /* after mg_line_figures_finish () */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint l = g_array_index (self->lines, Line, mid).figure.line;
      if (l == line)
        return &g_array_index (self->lines, Line, mid).figure;
      if (l < line)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

double
mg_line_figures_share (const MgLineFigures *self, guint64 samples)
{
  return self->total > 0 ? 100.0 * (double) samples / (double) self->total : 0;
}
