/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the samples of a stack set went in one source file, by line (the
 * Code pane's Source view, issue 30): each line's self samples (the
 * stack's innermost frame is on it), total samples (it is anywhere in
 * the stack, counted once per stack) and, per time bin of the range,
 * its total samples: when in the run the line was busy. Frames are
 * named by an MgFrameNameFunc (the window's: the symboliser), each
 * distinct address once; inlined frames count on their own lines. Built
 * on any thread; read-only once finished. */
#pragma once

#include <glib.h>

#include "plot/mg-frame-namer.h"
#include "profile/mg-stack-set.h"
#include "profile/mg-stack-windows.h"

G_BEGIN_DECLS

/* A line is hot, marked and given a sparkline, from this share (%) of
 * the range's samples in its total. */
#define MG_LINE_FIGURES_HOT_SHARE 1.0

typedef struct {
  guint line;          /* 1 for the file's first */
  guint64 self;
  guint64 total;
  gboolean hot;
  guint64 *bins;       /* n_bins totals, the range cut in equal parts */
} MgLineFigure;

typedef struct _MgLineFigures MgLineFigures;

/* The lines of FILE (as the frames name it), the range [START_S, END_S]
 * cut into N_BINS bins (at least 1). */
MgLineFigures *mg_line_figures_new (const char *file, MgFrameNameFunc func, gpointer user_data,
                                    double start_s, double end_s, guint n_bins);
void mg_line_figures_free (MgLineFigures *self);

/* COUNT samples of a stack (FRAMES innermost first; SET names their
 * modules, NULL: none) taken in the window (WINDOW_START, WINDOW_END]:
 * its bin is the one of the window's middle. */
void mg_line_figures_add_stack (MgLineFigures *self, const MgStackSet *set,
                                const MgStackFrame *frames, guint n_frames, guint64 count,
                                double window_start, double window_end);
/* The same stack counted in N_WINDOWS windows: its lines found once. */
void mg_line_figures_add_windows (MgLineFigures *self, const MgStackSet *set,
                                  const MgStackFrame *frames, guint n_frames,
                                  const guint64 *counts, const double *window_starts,
                                  const double *window_ends, guint n_windows);
/* The stacks of WINDOWS counted in windows that overlap (START_S,
 * END_S] (-INFINITY, INFINITY: all), each in the bin of its window's
 * middle, each stack's lines found once however many windows count it;
 * SET names the modules (a stack set of the same profile). */
void mg_line_figures_add_stack_windows (MgLineFigures *self, const MgStackSet *set,
                                        const MgStackWindows *windows, double start_s,
                                        double end_s);
/* For a caller that finds each stack's lines itself and sums stacks
 * passing the same lines first (the call index): the lines of the file
 * an address names (MODULE at LOOKUP_VADDR, already one less for a
 * return address; MODULE_INDEX keys the figures' cache), innermost
 * first, and *FIRST_LINE its innermost entry's when in the file, else 0.
 * Valid while the figures live. */
const guint *mg_line_figures_name_address (MgLineFigures *self, const MgStackModule *module,
                                           guint32 module_index, guint64 lookup_vaddr,
                                           guint *n_lines, guint *first_line);
/* The index of LINE's figures, made on first use (before finishing). */
guint mg_line_figures_line_index (MgLineFigures *self, guint line);
/* The bin of a window (that of its middle). */
guint mg_line_figures_get_bin (const MgLineFigures *self, double window_start,
                               double window_end);
/* Adds BINS (n_bins of them) to the samples per bin and the total. */
void mg_line_figures_add_to_totals (MgLineFigures *self, const guint64 *bins);
/* Adds SELF_SAMPLES, TOTAL and BINS (n_bins of them, NULL: none) to the
 * line of INDEX; the totals are the caller's (no frames through
 * mg_line_figures_add_windows ()). */
void mg_line_figures_add_to_line (MgLineFigures *self, guint index, guint64 self_samples,
                                  guint64 total, const guint64 *bins);
/* Sorts the lines and marks the hot ones. */
void mg_line_figures_finish (MgLineFigures *self);

const char *mg_line_figures_get_file (const MgLineFigures *self);
/* Samples added, in FILE or not: what the shares are of. */
guint64 mg_line_figures_get_total (const MgLineFigures *self);
guint mg_line_figures_get_n_bins (const MgLineFigures *self);
/* Samples added per bin, in FILE or not: what a sparkline bar is of. */
const guint64 *mg_line_figures_get_bin_totals (const MgLineFigures *self);
/* Lines with samples, first line first. */
guint mg_line_figures_get_n_lines (const MgLineFigures *self);
const MgLineFigure *mg_line_figures_get_line (const MgLineFigures *self, guint i);
/* The figures of LINE, NULL when no sample was on it. */
const MgLineFigure *mg_line_figures_lookup (const MgLineFigures *self, guint line);
/* % of the total. */
double mg_line_figures_share (const MgLineFigures *self, guint64 samples);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgLineFigures, mg_line_figures_free)

G_END_DECLS
