/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-source-view-private.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <math.h>

#include "graph/mg-theme.h"
#include "plot/mg-call-index.h"
#include "mg-source-gutter.h"
#include "profile/mg-stack-set.h"
#include "profile/mg-stack-windows.h"
#include "profile/mg-profile-code.h"
#include "symbols/mg-symbolizer.h"

/* Bins of a sparkline: 2 pixels each in the gutter's 56. */
#define N_BINS 28
#define SETTINGS_FOLDER "source-folder"

typedef struct _Lookup Lookup;
typedef struct _LineNamer LineNamer;

struct _MgSourceView
{
  GtkBox parent_instance;

  MgTimeView *view;
  MgProfile *profile;
  LineNamer *namer;          /* per profile; one worker at a time uses it */
  MgCallIndex *index;        /* the Code pane's for the profile, NULL before */
  Lookup *lookup;
  gboolean lookup_set;  /* by mg_source_view_set_lookup: kept for every profile */
  GSettings *settings;       /* NULL where the schema is not installed */
  char *folder;
  char *function, *file;
  guint line;
  gboolean running, dirty;
  guint generation;
  MgLineFigures *figures;
  char *found_at;            /* of the text in the buffer */
  char *shown_file;          /* the recorded path of that text */
  guint shown_line;
  guint scroll_tick;         /* scrolling to shown_line while laid out */
  gint64 scroll_since;       /* frame time of its first tick, 0 before */
  double scroll_value;       /* the view's place at the last tick */
  double scroll_upper;       /* the text's height at the last tick */
  double scroll_set;         /* the view's place after its last scroll; -1: waiting */
  int scroll_line_y;         /* shown_line's place in the text then */
  gint64 settled_since;      /* frame time since which all three held */
  guint settled_ticks;       /* ticks since then */
  GtkSourceGutterRenderer *gutter;
  GtkTextTag *hot_tag;

  GtkWidget *file_label;
  GtkWidget *columns_label;
  GtkWidget *folder_button;
  GtkWidget *pages;
  GtkWidget *scrolled;
  GtkWidget *source;
  GtkWidget *empty_title;
  GtkWidget *empty_detail;
  GtkWidget *empty_button;
};

G_DEFINE_FINAL_TYPE (MgSourceView, mg_source_view, GTK_TYPE_BOX)

/* A lookup and its data, shared with the computation using it: a new one
 * set meanwhile frees the old one's data only when that ends. */
struct _Lookup {
  MgSourceLookupFunc func;
  gpointer data;
  GDestroyNotify destroy;
};

static void
lookup_clear (gpointer p)
{
  Lookup *lookup = p;
  if (lookup->destroy)
    lookup->destroy (lookup->data);
}

static Lookup *
lookup_new (MgSourceLookupFunc func, gpointer data, GDestroyNotify destroy)
{
  Lookup *lookup = g_atomic_rc_box_new0 (Lookup);
  *lookup = (Lookup) { func, data, destroy };
  return lookup;
}

static void
lookup_unref (Lookup *lookup)
{
  g_atomic_rc_box_release_full (lookup, lookup_clear);
}

static GtkTextBuffer *
buffer_of (MgSourceView *self)
{
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source));
}

/* The symboliser as a frame-name callback, each address's answer kept
 * for the profile: a new range or file only counts again. Used by one
 * computation at a time. */
struct _LineNamer {
  MgProfile *profile;  /* its stored names first (those its run resolved) */
  MgSymbolizer *symbolizer;
  GHashTable *frames;  /* FrameKey → GPtrArray of MgStackFrameName */
};

typedef struct {
  const char *path;    /* interned */
  guint64 vaddr;
} FrameKey;

static guint
frame_key_hash (gconstpointer p)
{
  const FrameKey *k = p;
  return g_direct_hash (k->path) ^ g_int64_hash (&k->vaddr);
}

static gboolean
frame_key_equal (gconstpointer a, gconstpointer b)
{
  const FrameKey *x = a, *y = b;
  return x->path == y->path && x->vaddr == y->vaddr;
}

static LineNamer *
line_namer_new (MgProfile *profile)
{
  LineNamer *namer = g_atomic_rc_box_new0 (LineNamer);
  namer->profile = g_object_ref (profile);
  namer->symbolizer = mg_symbolizer_new ();
  namer->frames = g_hash_table_new_full (frame_key_hash, frame_key_equal, g_free,
                                         (GDestroyNotify) g_ptr_array_unref);
  return namer;
}

static void
line_namer_clear (gpointer p)
{
  LineNamer *namer = p;
  g_clear_object (&namer->profile);
  g_clear_object (&namer->symbolizer);
  g_hash_table_destroy (namer->frames);
}

static void
line_namer_unref (LineNamer *namer)
{
  g_atomic_rc_box_release_full (namer, line_namer_clear);
}

/* The names the profile carries for the address, else the symboliser's
 * (an unresolved address has one frame without a file: no line). */
static GPtrArray *
name_address (LineNamer *namer, const MgStackModule *module, guint64 vaddr)
{
  GPtrArray *names = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_stack_frame_name_free);
  MgStackNamer stored = mg_profile_get_stored_namer (namer->profile);
  g_autoptr (GPtrArray) frames = NULL;

  if (stored.func (stored.data, module->path, module->build_id, module->build_id_len, vaddr, names))
    return names;
  frames = mg_symbolizer_resolve (namer->symbolizer, module->path, module->build_id,
                                  module->build_id_len, vaddr, NULL);
  for (guint i = 0; i < frames->len; i++)
    {
      const MgSymbolFrame *f = g_ptr_array_index (frames, i);
      MgStackFrameName *name = g_new0 (MgStackFrameName, 1);
      name->function = g_strdup (f->function);
      name->file = g_strdup (f->file);
      name->line = f->line;
      g_ptr_array_add (names, name);
    }
  return names;
}

static guint
name_lines (const MgStackModule *module, guint64 vaddr, MgFrameNameEntry *entries, guint max,
            gpointer user_data)
{
  LineNamer *namer = user_data;
  FrameKey key;
  GPtrArray *frames;
  guint n;

  if (module == NULL)
    return 0;
  key = (FrameKey) { g_intern_string (module->path), vaddr };
  frames = g_hash_table_lookup (namer->frames, &key);
  if (frames == NULL)
    {
      frames = name_address (namer, module, vaddr);
      g_hash_table_insert (namer->frames, g_memdup2 (&key, sizeof key), frames);
    }
  n = MIN (frames->len, max);
  for (guint i = 0; i < n; i++)
    {
      const MgStackFrameName *f = g_ptr_array_index (frames, i);
      entries[i] = (MgFrameNameEntry) { f->function, f->file, f->line };
    }
  return n;
}

/* One computation: the file's text and its lines' figures. */
typedef struct {
  MgProfile *profile;
  LineNamer *namer;
  MgCallIndex *index;   /* NULL: the stacks' windows read */
  Lookup *lookup;
  char *folder;
  char *file;
  int process;
  double t0, t1;        /* the stacks' range */
  double bins0, bins1;  /* the sparklines' */
  guint generation;
  /* results */
  GBytes *text;
  char *found_at;
  char *error;
  MgLineFigures *figures;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;
  g_clear_object (&job->profile);
  g_clear_pointer (&job->namer, line_namer_unref);
  g_clear_pointer (&job->index, mg_call_index_unref);
  g_clear_pointer (&job->lookup, lookup_unref);
  g_free (job->folder);
  g_free (job->file);
  g_clear_pointer (&job->text, g_bytes_unref);
  g_free (job->found_at);
  g_free (job->error);
  g_clear_pointer (&job->figures, mg_line_figures_free);
  g_free (job);
}

/* The text as UTF-8: a file in another encoding shows with its invalid
 * bytes replaced rather than not at all. */
static GBytes *
as_utf8 (GBytes *text)
{
  gsize size;
  const char *data = g_bytes_get_data (text, &size);

  if (g_utf8_validate_len (data, size, NULL))
    return g_bytes_ref (text);
  char *valid = g_utf8_make_valid (data, (gssize) size);
  return g_bytes_new_take (valid, strlen (valid));
}

static void
compute (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) text = mg_source_find (job->file, job->lookup->func, job->lookup->data, job->folder,
                                            &job->found_at, &error);

  if (text == NULL)
    {
      job->error = g_strdup (error ? error->message : "");
      g_task_return_boolean (task, TRUE);
      return;
    }
  job->text = as_utf8 (text);
  job->figures = mg_line_figures_new (job->file, name_lines, job->namer, job->bins0, job->bins1,
                                      N_BINS);
  /* The Code pane's index: only the stacks that may pass the file are
   * looked at (tens of ms where reading every stack takes hundreds). */
  if (job->index != NULL)
    mg_call_index_add_line_figures (job->index, job->figures, job->process, job->t0, job->t1);
  else
    {
      /* The stack set of an empty range: the module table alone. */
      g_autoptr (MgStackSet) modules = mg_stack_set_new (job->profile, job->process, 0, 0);
      g_autoptr (MgStackWindows) windows = mg_stack_windows_new (job->profile, job->process);
      mg_line_figures_add_stack_windows (job->figures, modules, windows, job->t0, job->t1);
    }
  mg_line_figures_finish (job->figures);
  g_task_return_boolean (task, TRUE);
}

static void
show_empty (MgSourceView *self, const char *title, const char *detail, gboolean offer_folder)
{
  gtk_label_set_text (GTK_LABEL (self->empty_title), title);
  gtk_label_set_text (GTK_LABEL (self->empty_detail), detail);
  gtk_widget_set_visible (self->empty_button, offer_folder);
  gtk_widget_set_visible (self->columns_label, FALSE);
  gtk_stack_set_visible_child_name (GTK_STACK (self->pages), "empty");
}

static void
clear_figures (MgSourceView *self)
{
  mg_source_gutter_set_figures (MG_SOURCE_GUTTER (self->gutter), NULL);
  g_clear_pointer (&self->figures, mg_line_figures_free);
}

static void
set_text (MgSourceView *self, GBytes *text, const char *file)
{
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (buffer_of (self));
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  gsize size;
  const char *data = g_bytes_get_data (text, &size);
  g_autofree char *base = g_path_get_basename (file);

  gtk_source_buffer_set_language (buffer, gtk_source_language_manager_guess_language (languages,
                                                                                      base, NULL));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), data, (int) size);
}

static void
mark_hot_lines (MgSourceView *self)
{
  GtkTextBuffer *buffer = buffer_of (self);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag (buffer, self->hot_tag, &start, &end);
  for (guint i = 0; self->figures && i < mg_line_figures_get_n_lines (self->figures); i++)
    {
      const MgLineFigure *f = mg_line_figures_get_line (self->figures, i);
      if (!f->hot || f->line > (guint) gtk_text_buffer_get_line_count (buffer))
        continue;
      gtk_text_buffer_get_iter_at_line (buffer, &start, (int) f->line - 1);
      end = start;
      gtk_text_iter_forward_line (&end);
      gtk_text_buffer_apply_tag (buffer, self->hot_tag, &start, &end);
    }
}


/* The top of the line at VALUE, for a view set there to begin with a
 * whole line: a third of the page down rarely falls between two lines
 * (split.c's first line was shown half cut). */
static double
whole_line_top (MgSourceView *self, double value)
{
  GtkTextIter iter;
  int top;

  if (value <= 0)
    return value;
  gtk_text_view_get_line_at_y (GTK_TEXT_VIEW (self->source), &iter, (int) floor (value), &top);
  return top;
}

static void
scroll_to_cursor (MgSourceView *self)
{
  GtkTextBuffer *buffer = buffer_of (self);
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->source));
  GtkTextIter iter;
  int y, height;

  /* A third down: the function's first lines and what precedes them. Set,
   * not animated: GTK 4.8 logs a critical when a text view is unmapped
   * during its scroll animation. */
  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (self->source), &iter, &y, &height);
  gtk_adjustment_set_value (adjustment,
                            whole_line_top (self, y - 0.3 * gtk_adjustment_get_page_size (adjustment)));
  self->scroll_set = gtk_adjustment_get_value (adjustment);
}

/* Whether the lines above shown_line are laid out. GTK lays a new text
 * out over many frames, in steps, and a line not yet laid out has no
 * height: a line far down seems near the top until then, and a scroll
 * there ends on a line near the top, which the view then keeps in place
 * while the lines above grow (zstd's zstd_lazy.c opened on line 822
 * showed line 1). No line of the text (not wrapped) is lower than the
 * first or than the target itself, so the target's place tells. */
static gboolean
target_laid_out (MgSourceView *self, int *target_y)
{
  GtkTextIter iter;
  int y, height, first_y, first_height;

  gtk_text_buffer_get_iter_at_line (buffer_of (self), &iter, (int) self->shown_line - 1);
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (self->source), &iter, &y, &height);
  gtk_text_buffer_get_start_iter (buffer_of (self), &iter);
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (self->source), &iter, &first_y, &first_height);
  *target_y = y;
  int line_height = MIN (first_height, height);
  return line_height > 0 && (gint64) y >= (gint64) (self->shown_line - 1) * line_height;
}

/* Each frame until the line shows: while the lines above it are not laid
 * out, wait (the view stays where it is; if the user moves it meanwhile,
 * the scroll is theirs and ends); then scroll to it, again each frame
 * unless it shows (a scroll asked before a layout step stops short); end
 * once it shows and the view, the text's height and the line's place
 * have held for 200 ms and 6 frames. */
static gboolean
on_scroll_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  MgSourceView *self = MG_SOURCE_VIEW (data);
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->source));
  double value = gtk_adjustment_get_value (adjustment);
  double upper = gtk_adjustment_get_upper (adjustment);
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  int y = 0;
  gboolean laid_out = self->shown_line > 0 && target_laid_out (self, &y);
  double before = self->scroll_value;
  gboolean still = value == before;
  gboolean held = still && upper == self->scroll_upper && y == self->scroll_line_y;

  self->scroll_value = value;
  self->scroll_upper = upper;
  self->scroll_line_y = y;
  if (self->scroll_since == 0)
    self->scroll_since = now;
  if (!held)
    {
      self->settled_since = now;
      self->settled_ticks = 0;
    }
  else
    self->settled_ticks++;
  gboolean waiting = self->scroll_set < 0;
  /* While it waits, only the user moves the view, or GTK clamps it to
   * the end of a text that shrank; once it scrolled, only the user. */
  double end_value = MAX (gtk_adjustment_get_lower (adjustment),
                          upper - gtk_adjustment_get_page_size (adjustment));
  gboolean moved_by_user = !still && value != (waiting ? end_value : self->scroll_set);
  gboolean shows = self->shown_line > 0 && mg_source_view_line_is_visible (self, self->shown_line);
  /* A loaded machine (or a sanitizer build) lays out slowly: up to 15 s. */
  if (self->shown_line == 0 || now - self->scroll_since > 15 * G_USEC_PER_SEC || moved_by_user
      || (!waiting && shows && held && self->settled_ticks >= 6
          && now - self->settled_since >= 200 * 1000))
    {
      self->scroll_tick = 0;
      return G_SOURCE_REMOVE;
    }
  if (laid_out && (waiting || (still && !shows)))
    scroll_to_cursor (self);
  return G_SOURCE_CONTINUE;
}

static void
scroll_to (MgSourceView *self, guint line)
{
  GtkTextBuffer *buffer = buffer_of (self);
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->source));
  GtkTextIter iter;
  int y;

  line = CLAMP (line, 1, (guint) gtk_text_buffer_get_line_count (buffer));
  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) line - 1);
  gtk_text_buffer_place_cursor (buffer, &iter);
  self->shown_line = line;
  self->scroll_set = -1;
  /* Not laid out yet: it waits at the top (a new text's first line),
   * where a place kept from the text before would move as this one is
   * laid out. */
  if (target_laid_out (self, &y))
    scroll_to_cursor (self);
  else
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_lower (adjustment));
  self->scroll_since = 0;
  self->scroll_value = gtk_adjustment_get_value (adjustment);
  self->scroll_upper = -1;
  self->settled_ticks = 0;
  if (self->scroll_tick == 0)
    self->scroll_tick = gtk_widget_add_tick_callback (self->source, on_scroll_tick, self, NULL);
}

/* The cursor's line and its figures, for screen readers: the gutter is
 * drawn only. */
static void
describe_cursor (MgSourceView *self)
{
  guint line = mg_source_view_get_line (self);
  g_autofree char *figures = line ? mg_source_view_describe_line (self, line) : NULL;
  g_autofree char *text = NULL;

  if (line == 0)
    text = g_strdup ("");
  else if (figures)
    /* Translators: the Source view's description for screen readers: a line number,
     * then its figures ("Self 12.5 %, Total 30.0 %") */
    text = g_strdup_printf (_("Line %u: %s"), line, figures);
  else
    /* Translators: the Source view's description for screen readers: a line number */
    text = g_strdup_printf (_("Line %u: no samples"), line);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->source),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static void
show_source (MgSourceView *self, Job *job)
{
  gboolean same = g_strcmp0 (self->shown_file, job->file) == 0
                  && g_strcmp0 (self->found_at, job->found_at) == 0;

  clear_figures (self);
  self->figures = g_steal_pointer (&job->figures);
  if (!same)
    {
      set_text (self, job->text, job->file);
      g_free (self->shown_file);
      self->shown_file = g_strdup (job->file);
      g_free (self->found_at);
      self->found_at = g_strdup (job->found_at);
      self->shown_line = 0;
    }
  mg_source_gutter_set_figures (MG_SOURCE_GUTTER (self->gutter), self->figures);
  mark_hot_lines (self);
  /* A new file or function is scrolled to; a new range keeps the place. */
  if (!same || self->shown_line != MAX (self->line, 1))
    scroll_to (self, self->line);
  gtk_label_set_text (GTK_LABEL (self->file_label), self->found_at);
  gtk_widget_set_tooltip_text (self->file_label, g_strcmp0 (self->found_at, job->file) == 0
                                                   ? NULL : job->file);
  gtk_widget_set_visible (self->columns_label, TRUE);
  gtk_stack_set_visible_child_name (GTK_STACK (self->pages), "source");
  describe_cursor (self);
}

static void
show_not_found (MgSourceView *self, Job *job)
{
  g_autofree char *detail = NULL;

  if (self->folder && self->folder[0])
    detail = g_strdup_printf (
      /* Translators: the Source view's empty state; the first %s is a source file's path,
       * the second why it could not be read, the third a folder */
      _("“%s” is not in the profile and cannot be read (%s), and no file of that name is "
        "under “%s”. Choose the folder that holds the program's sources: the end of the "
        "recorded path is looked for under it."),
      job->file, job->error, self->folder);
  else
    detail = g_strdup_printf (
      /* Translators: the Source view's empty state; the first %s is a source file's path,
       * the second why it could not be read */
      _("“%s” is not in the profile and cannot be read (%s). If the sources are elsewhere "
        "on this machine, choose their folder: the end of the recorded path is looked for "
        "under it."),
      job->file, job->error);
  show_empty (self, _("Source Not Found"), detail, TRUE);
  clear_figures (self);
  g_clear_pointer (&self->shown_file, g_free);
  g_clear_pointer (&self->found_at, g_free);
  gtk_text_buffer_set_text (buffer_of (self), "", 0);
  gtk_label_set_text (GTK_LABEL (self->file_label), job->file);
}

static void start (MgSourceView *self);

static void
on_computed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  MgSourceView *self = MG_SOURCE_VIEW (source);
  Job *job = g_task_get_task_data (G_TASK (result));

  self->running = FALSE;
  if (job->generation == self->generation && !self->dirty)
    {
      if (job->text)
        show_source (self, job);
      else
        show_not_found (self, job);
    }
  if (self->dirty)
    start (self);
}

/* The empty states that need no computation; FALSE when a file is to be
 * read. */
static gboolean
show_without_file (MgSourceView *self)
{
  g_autofree char *detail = NULL;

  if (self->function != NULL && self->file != NULL && self->profile != NULL)
    return FALSE;
  clear_figures (self);
  g_clear_pointer (&self->shown_file, g_free);
  g_clear_pointer (&self->found_at, g_free);
  gtk_label_set_text (GTK_LABEL (self->file_label), "");
  if (self->function == NULL || self->profile == NULL)
    {
      show_empty (self, _("No Function Selected"),
                  _("Select a function in Functions, Call Tree or Flame Graph to see its source "
                    "here, with each line's share of the samples."),
                  FALSE);
      return TRUE;
    }
  /* An MPI function: the symboliser shows the MPI library's function in
   * place of Metrograph's wrapper of it, and never our source. */
  if (g_str_has_prefix (self->function, "MPI_"))
    {
      detail = g_strdup_printf (
        /* Translators: %s is an MPI function's name, e.g. MPI_Waitall */
        _("No source: “%s” is a function of the MPI library, whose source is not part of "
          "the profile. Its time is shown at its call sites in the program."),
        self->function);
      show_empty (self, _("Function of the MPI Library"), detail, FALSE);
      return TRUE;
    }
  detail = g_strdup_printf (
    /* Translators: %s is a function's name */
    _("The debug information names no source file for “%s”. Build the program with -g (and "
      "keep its debug information) to see its lines."),
    self->function);
  show_empty (self, _("No Source File"), detail, FALSE);
  return TRUE;
}

static void
start (MgSourceView *self)
{
  double t0, t1;
  Job *job;

  self->dirty = FALSE;
  if (show_without_file (self))
    return;
  job = g_new0 (Job, 1);
  job->profile = g_object_ref (self->profile);
  job->namer = g_atomic_rc_box_acquire (self->namer);
  job->index = self->index ? mg_call_index_ref (self->index) : NULL;
  job->lookup = g_atomic_rc_box_acquire (self->lookup);
  job->folder = g_strdup (self->folder);
  job->file = g_strdup (self->file);
  job->process = mg_time_view_get_process (self->view);
  job->generation = self->generation;
  if (mg_time_view_get_figures_range (self->view, &t0, &t1) == MG_FIGURES_RANGE_RUN)
    {
      job->t0 = -INFINITY, job->t1 = INFINITY;
      job->bins0 = 0, job->bins1 = mg_time_view_get_duration (self->view);
    }
  else
    {
      job->t0 = job->bins0 = t0;
      job->t1 = job->bins1 = t1;
    }
  self->running = TRUE;
  g_autoptr (GTask) task = g_task_new (self, NULL, on_computed, NULL);
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, compute);
}

/* One computation at a time (the symboliser is for one thread): a
 * change while one runs is done when it ends. */
static void
schedule (MgSourceView *self)
{
  if (self->running)
    self->dirty = TRUE;
  else
    start (self);
}

/* The default lookup: the text the profile carries (its run kept the
 * sampled files), else the disk at the recorded path. */
static GBytes *
lookup_stored_or_disk (const char *path, gpointer user_data, GError **error)
{
  GBytes *text = mg_profile_get_source_text (user_data, path);
  return text != NULL ? text : mg_source_lookup_disk (path, NULL, error);
}

void
mg_source_view_set_profile (MgSourceView *self, MgProfile *profile)
{
  g_return_if_fail (MG_IS_SOURCE_VIEW (self));

  self->generation++;
  g_clear_object (&self->profile);
  g_clear_pointer (&self->namer, line_namer_unref);
  g_clear_pointer (&self->index, mg_call_index_unref);
  g_clear_pointer (&self->function, g_free);
  g_clear_pointer (&self->file, g_free);
  if (profile)
    {
      self->profile = g_object_ref (profile);
      self->namer = line_namer_new (profile);
      if (!self->lookup_set)
        {
          g_clear_pointer (&self->lookup, lookup_unref);
          self->lookup = lookup_new (lookup_stored_or_disk, g_object_ref (profile), g_object_unref);
        }
    }
  schedule (self);
}

gboolean
mg_source_view_has_index (MgSourceView *self)
{
  g_return_val_if_fail (MG_IS_SOURCE_VIEW (self), FALSE);
  return self->index != NULL;
}

void
mg_source_view_set_index (MgSourceView *self, MgCallIndex *index)
{
  g_return_if_fail (MG_IS_SOURCE_VIEW (self));
  if (index == self->index)
    return;
  g_clear_pointer (&self->index, mg_call_index_unref);
  if (index != NULL)
    self->index = mg_call_index_ref (index);
}

void
mg_source_view_set_lookup (MgSourceView *self, MgSourceLookupFunc lookup, gpointer user_data,
                           GDestroyNotify destroy)
{
  g_return_if_fail (MG_IS_SOURCE_VIEW (self));

  g_clear_pointer (&self->lookup, lookup_unref);
  self->lookup_set = lookup != NULL;
  self->lookup = lookup ? lookup_new (lookup, user_data, destroy)
                        : self->profile ? lookup_new (lookup_stored_or_disk,
                                                      g_object_ref (self->profile), g_object_unref)
                                        : lookup_new (mg_source_lookup_disk, NULL, NULL);
  g_clear_pointer (&self->shown_file, g_free);
  schedule (self);
}

void
mg_source_view_show_function (MgSourceView *self, const char *function, const char *file,
                              guint line)
{
  g_return_if_fail (MG_IS_SOURCE_VIEW (self));

  g_free (self->function);
  self->function = g_strdup (function);
  g_free (self->file);
  self->file = g_strdup (file);
  self->line = line;
  /* Scrolled to even when it is the line shown: the user may have moved. */
  self->shown_line = 0;
  schedule (self);
}

void
mg_source_view_set_source_folder (MgSourceView *self, const char *folder)
{
  g_free (self->folder);
  self->folder = g_strdup (folder ? folder : "");
  if (self->settings)
    g_settings_set_string (self->settings, SETTINGS_FOLDER, self->folder);
  /* The text may now come from elsewhere: read it again. */
  g_clear_pointer (&self->shown_file, g_free);
  schedule (self);
}

static void
on_folder_chosen (GtkNativeDialog *dialog, int response, gpointer data)
{
  g_autoptr (MgSourceView) self = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;
      if (path)
        mg_source_view_set_source_folder (self, path);
    }
  g_object_unref (dialog);
}

static void
on_choose_folder (MgSourceView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
    _("Choose Source Folder"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
    GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Choose"), _("_Cancel"));

  if (self->folder && self->folder[0])
    {
      g_autoptr (GFile) current = g_file_new_for_path (self->folder);
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), current, NULL);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_folder_chosen), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Light or dark with the window, as the graphs. */
static void
update_scheme (MgSourceView *self)
{
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  gboolean dark = mg_theme_is_dark (GTK_WIDGET (self));
  GtkSourceStyleScheme *scheme =
    gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "Adwaita-dark" : "Adwaita");

  if (scheme)
    gtk_source_buffer_set_style_scheme (GTK_SOURCE_BUFFER (buffer_of (self)), scheme);
  /* Amber, see-through: on either scheme's background. */
  GdkRGBA hot = dark ? (GdkRGBA) { 1.0, 0.65, 0.2, 0.16 } : (GdkRGBA) { 1.0, 0.6, 0.0, 0.16 };
  g_object_set (self->hot_tag, "paragraph-background-rgba", &hot, NULL);
}

static GSettings *
new_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, MG_APP_ID, TRUE);
  return schema ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

static const char *const range_properties[] = {
  "notify::start", "notify::end", "notify::has-selection", "notify::selection-start",
  "notify::selection-end", "notify::process",
};

static void
mg_source_view_dispose (GObject *object)
{
  MgSourceView *self = MG_SOURCE_VIEW (object);

  self->generation++;
  if (self->view)
    g_signal_handlers_disconnect_by_data (self->view, self);
  g_clear_object (&self->view);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->namer, line_namer_unref);
  g_clear_pointer (&self->index, mg_call_index_unref);
  g_clear_object (&self->settings);
  if (self->gutter)
    clear_figures (self);
  if (self->scroll_tick)
    gtk_widget_remove_tick_callback (self->source, self->scroll_tick);
  self->scroll_tick = 0;
  g_clear_pointer (&self->lookup, lookup_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), MG_TYPE_SOURCE_VIEW);
  G_OBJECT_CLASS (mg_source_view_parent_class)->dispose (object);
}

static void
mg_source_view_finalize (GObject *object)
{
  MgSourceView *self = MG_SOURCE_VIEW (object);

  g_clear_pointer (&self->figures, mg_line_figures_free);
  g_free (self->folder);
  g_free (self->function);
  g_free (self->file);
  g_free (self->found_at);
  g_free (self->shown_file);
  G_OBJECT_CLASS (mg_source_view_parent_class)->finalize (object);
}

static void
mg_source_view_class_init (MgSourceViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = mg_source_view_dispose;
  G_OBJECT_CLASS (klass)->finalize = mg_source_view_finalize;
  gtk_source_init ();
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/metrograph/Metrograph/ui/mg-source-view.ui");
  gtk_widget_class_bind_template_child (widget_class, MgSourceView, file_label);
  gtk_widget_class_bind_template_child (widget_class, MgSourceView, columns_label);
  gtk_widget_class_bind_template_child (widget_class, MgSourceView, folder_button);
  gtk_widget_class_bind_template_child (widget_class, MgSourceView, pages);
  gtk_widget_class_bind_template_child (widget_class, MgSourceView, scrolled);
  gtk_widget_class_bind_template_child (widget_class, MgSourceView, source);
  gtk_widget_class_bind_template_child (widget_class, MgSourceView, empty_title);
  gtk_widget_class_bind_template_child (widget_class, MgSourceView, empty_detail);
  gtk_widget_class_bind_template_child (widget_class, MgSourceView, empty_button);
  gtk_widget_class_bind_template_callback (widget_class, on_choose_folder);
}

static void
mg_source_view_init (MgSourceView *self)
{
  GtkSourceGutter *gutter;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->lookup = lookup_new (mg_source_lookup_disk, NULL, NULL);
  self->settings = new_settings ();
  self->folder = self->settings ? g_settings_get_string (self->settings, SETTINGS_FOLDER)
                                : g_strdup ("");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->source), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Source"), -1);
  self->hot_tag = gtk_text_buffer_create_tag (buffer_of (self), "mg-hot", NULL);
  g_signal_connect_object (buffer_of (self), "notify::cursor-position",
                           G_CALLBACK (describe_cursor), self, G_CONNECT_SWAPPED);
  self->gutter = mg_source_gutter_new ();
  gutter = gtk_source_view_get_gutter (GTK_SOURCE_VIEW (self->source), GTK_TEXT_WINDOW_LEFT);
  gtk_source_gutter_insert (gutter, self->gutter, -10);
  /* Known once the view is in the window and its theme applies. */
  g_signal_connect (self, "realize", G_CALLBACK (update_scheme), NULL);
  update_scheme (self);
  g_signal_connect_object (gtk_settings_get_default (), "notify::gtk-application-prefer-dark-theme",
                           G_CALLBACK (update_scheme), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_settings_get_default (), "notify::gtk-theme-name",
                           G_CALLBACK (update_scheme), self, G_CONNECT_SWAPPED);
  show_without_file (self);
}

GtkWidget *
mg_source_view_new (MgTimeView *view)
{
  MgSourceView *self = g_object_new (MG_TYPE_SOURCE_VIEW, NULL);

  self->view = g_object_ref (view);
  for (guint i = 0; i < G_N_ELEMENTS (range_properties); i++)
    g_signal_connect_swapped (view, range_properties[i], G_CALLBACK (schedule), self);
  return GTK_WIDGET (self);
}

gboolean
mg_source_view_is_busy (MgSourceView *self)
{
  return self->running || self->dirty;
}

char *
mg_source_view_dup_text (MgSourceView *self)
{
  GtkTextIter start, end;

  if (self->found_at == NULL)
    return NULL;
  gtk_text_buffer_get_bounds (buffer_of (self), &start, &end);
  return gtk_text_buffer_get_text (buffer_of (self), &start, &end, FALSE);
}

const char *
mg_source_view_get_found_at (MgSourceView *self)
{
  return self->found_at;
}

guint
mg_source_view_get_line (MgSourceView *self)
{
  GtkTextIter cursor;

  if (self->found_at == NULL)
    return 0;
  gtk_text_buffer_get_iter_at_mark (buffer_of (self), &cursor,
                                    gtk_text_buffer_get_insert (buffer_of (self)));
  return (guint) gtk_text_iter_get_line (&cursor) + 1;
}

gboolean
mg_source_view_is_scrolling (MgSourceView *self)
{
  return self->scroll_tick != 0;
}

gboolean
mg_source_view_line_is_visible (MgSourceView *self, guint line)
{
  GdkRectangle visible;
  GtkTextIter iter;
  int y, height;

  gtk_text_view_get_visible_rect (GTK_TEXT_VIEW (self->source), &visible);
  gtk_text_buffer_get_iter_at_line (buffer_of (self), &iter, (int) line - 1);
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (self->source), &iter, &y, &height);
  return y >= visible.y && y + height <= visible.y + visible.height;
}

gboolean
mg_source_view_line_is_hot (MgSourceView *self, guint line)
{
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_line (buffer_of (self), &iter, (int) line - 1);
  return gtk_text_iter_has_tag (&iter, self->hot_tag);
}

const MgLineFigures *
mg_source_view_get_figures (MgSourceView *self)
{
  return self->figures;
}

guint
mg_source_view_get_n_named (MgSourceView *self)
{
  /* No computation runs when the tests ask. */
  return self->namer ? g_hash_table_size (self->namer->frames) : 0;
}

char *
mg_source_view_dup_gutter_tooltip (MgSourceView *self, guint line)
{
  GtkTextIter iter;
  int y, height, wx, wy;
  double gx, gy;

  gtk_text_buffer_get_iter_at_line (buffer_of (self), &iter, (int) line - 1);
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (self->source), &iter, &y, &height);
  gtk_text_view_buffer_to_window_coords (GTK_TEXT_VIEW (self->source), GTK_TEXT_WINDOW_WIDGET, 0,
                                         y + height / 2, &wx, &wy);
  if (!gtk_widget_translate_coordinates (self->source, GTK_WIDGET (self->gutter), 0, wy, &gx, &gy))
    return NULL;
  return mg_source_gutter_dup_tooltip_at (MG_SOURCE_GUTTER (self->gutter), 4, gy);
}

char *
mg_source_view_describe_line (MgSourceView *self, guint line)
{
  return mg_source_gutter_describe_line (MG_SOURCE_GUTTER (self->gutter), line);
}

const char *
mg_source_view_get_empty_title (MgSourceView *self)
{
  if (g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (self->pages)), "empty") != 0)
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->empty_title));
}

const char *
mg_source_view_get_empty_detail (MgSourceView *self)
{
  if (g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (self->pages)), "empty") != 0)
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->empty_detail));
}

const char *
mg_source_view_get_scheme (MgSourceView *self)
{
  GtkSourceStyleScheme *scheme =
    gtk_source_buffer_get_style_scheme (GTK_SOURCE_BUFFER (buffer_of (self)));
  return scheme ? gtk_source_style_scheme_get_id (scheme) : NULL;
}
