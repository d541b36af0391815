/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How a stack frame gets its names: the profile stores modules and ELF
 * virtual addresses; a namer (given by the front end, which may use
 * app/symbols: the profile area may not) turns one into functions and
 * source lines. The exports and the report name every frame through
 * mg_stack_frame_names (mg-export-folded.h) with one namer. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One name of a frame: a function (or an inlined instance of one) with
 * its source position, or, where nothing is known, the module + offset
 * label alone. */
typedef struct {
  char *function; /* NULL when not resolved */
  char *file;     /* NULL when unknown */
  guint line;     /* 0 when unknown */
  char *label;    /* what the folded export shows: function, or "module+0xVADDR" */
} MgStackFrameName;

void mg_stack_frame_name_free (MgStackFrameName *name);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgStackFrameName, mg_stack_frame_name_free)

/* Names vaddr (an ELF virtual address of the module at module_path; for a
 * return address already one byte back, inside the call): appends
 * MgStackFrameName items to names, INNERMOST first (an inlined chain has
 * several), and returns whether it named anything; FALSE leaves names
 * as it was and the caller uses the module + offset. */
typedef gboolean (*MgStackNameFunc) (gpointer data, const char *module_path,
                                     const guint8 *build_id, gsize build_id_len,
                                     guint64 vaddr, GPtrArray *names);

typedef struct {
  MgStackNameFunc func;
  gpointer data;
} MgStackNamer;

G_END_DECLS
