/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Names of a profile's stack frames for the code views (mg-call-tree.h):
 * a callback turns one (module, address) into its functions (an inline
 * chain: innermost first, the function that holds them last), and the
 * namer keeps the answer, so that each distinct address is named once
 * per profile however often the selection changes. The window's callback
 * is the symboliser (app/symbols), which the plot core may not include;
 * the tests give names of their own. Functions are interned by
 * (name, module): every frame of a function shares one MgCallFunction,
 * which lives as long as the namer. Thread-safe: one lock around the
 * cache, so a worker names frames while the main thread reads names. */
#pragma once

#include <glib.h>

#include "profile/mg-stack-set.h"

G_BEGIN_DECLS

/* One function as the views show it. */
typedef struct {
  char *name;     /* demangled, or "module+0xoffset" where unknown */
  char *file;     /* source file, NULL when unknown */
  guint line;     /* of the first address named in it; 0 when unknown (the
                   * views show the hottest line: mg_call_tree_get_function_line) */
  char *module;   /* the module's path; NULL outside every module */
  guint id;       /* index in the namer's function table */
} MgCallFunction;

/* What a callback returns for one address: innermost first. */
typedef struct {
  const char *name;  /* NULL: unresolved, the namer writes module+0xoffset */
  const char *file;
  guint line;
  const char *module; /* NULL: the frame's module; else the module the function is shown in
                       * (an interposed MPI function: the MPI library) */
} MgFrameNameEntry;

/* Names MODULE (NULL: outside every module) at LOOKUP_VADDR (already
 * one less for a return address): fills up to MAX entries, returns how
 * many (0 is taken as one unresolved entry). The strings need to live
 * only until the callback is called again. */
typedef guint (*MgFrameNameFunc) (const MgStackModule *module, guint64 lookup_vaddr,
                                  MgFrameNameEntry *entries, guint max, gpointer user_data);

#define MG_FRAME_NAMER_MAX_INLINE 16

typedef struct _MgFrameNamer MgFrameNamer;

MgFrameNamer *mg_frame_namer_new (MgFrameNameFunc func, gpointer user_data,
                                  GDestroyNotify destroy);
MgFrameNamer *mg_frame_namer_ref (MgFrameNamer *self);
void mg_frame_namer_unref (MgFrameNamer *self);

/* The functions of a frame, innermost first: ids into the namer's table,
 * valid until the next call. LEAF: the stack's innermost frame (its
 * address is not a return address). MODULE_INDEX names the module in
 * SET's table (the profile's: stable across sets of one profile). */
const guint *mg_frame_namer_name (MgFrameNamer *self, const MgStackSet *set,
                                  const MgStackFrame *frame, gboolean leaf, guint *n_functions);
/* The same with the frame's module given (NULL: outside every module;
 * the frame's module index still keys the cache). */
const guint *mg_frame_namer_name_in (MgFrameNamer *self, const MgStackModule *module,
                                     const MgStackFrame *frame, gboolean leaf,
                                     guint *n_functions);
/* The same with each function's LINES (valid as long as the ids): the
 * frame's line in the function's first file (MgCallFunction.file), 0
 * when unknown or in another file. */
const guint *mg_frame_namer_name_lines (MgFrameNamer *self, const MgStackSet *set,
                                        const MgStackFrame *frame, gboolean leaf,
                                        guint *n_functions, const guint **lines);
const guint *mg_frame_namer_name_lines_in (MgFrameNamer *self, const MgStackModule *module,
                                           const MgStackFrame *frame, gboolean leaf,
                                           guint *n_functions, const guint **lines);
/* The function of id (never freed while the namer lives). */
const MgCallFunction *mg_frame_namer_get_function (MgFrameNamer *self, guint id);
guint mg_frame_namer_get_n_functions (MgFrameNamer *self);
/* Whether an address named so far as function ID named FILE as its
 * file: the function's first file, or another one (two static
 * functions of one name in one module). */
gboolean mg_frame_namer_names_file (MgFrameNamer *self, guint id, const char *file);
/* Addresses named so far (each once), for tests. */
guint mg_frame_namer_get_n_named (MgFrameNamer *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgFrameNamer, mg_frame_namer_unref)

G_END_DECLS
