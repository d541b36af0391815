/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --export=FILE.folded: a profile's call stacks as flame-graph tools read
 * them (Brendan Gregg's flamegraph.pl, speedscope, inferno): one line per
 * distinct stack, its frames outermost first separated by ';', a space and
 * its count (docs/export.md). */
#pragma once

#include <glib.h>

#include "mg-profile.h"
#include "mg-stack-set.h"

G_BEGIN_DECLS

/* The names of one frame, outermost first (an address inside inlined code
 * has several). The one place frames are named: without a symboliser,
 * "<module's basename>+0x<vaddr>" ("0x<address>" outside every module). */
GPtrArray *mg_stack_frame_names (const MgStackSet *set, const MgStackFrame *frame,
                                 gboolean return_address);

/* Writes the stacks of process (-1: all) sampled in windows overlapping
 * (start_s, end_s] to path, replaced atomically. */
gboolean mg_export_folded (MgProfile *profile, const char *path, int process, double start_s,
                           double end_s, GError **error);

G_END_DECLS
