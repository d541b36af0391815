/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --export=FILE.folded: a profile's call stacks as flame-graph tools read
 * them (Brendan Gregg's flamegraph.pl, speedscope, inferno): one line per
 * distinct stack, its frames outermost first separated by ';', a space and
 * its count (docs/export.md). */
#pragma once

#include <glib.h>

#include "mg-profile.h"
#include "mg-stack-namer.h"
#include "mg-stack-set.h"

G_BEGIN_DECLS

/* The names of one frame (MgStackFrameName), outermost first (an address
 * inside inlined code has several: the function that holds them first,
 * the innermost inlined instance last). The one place frames are named:
 * by the names the profile carries (mg-profile-code.h), else through
 * namer (NULL: none), and where neither names it
 * "<module's basename>+0x<vaddr>" ("0x<address>" outside every module). A
 * return address is given to the namer one byte back. */
GPtrArray *mg_stack_frame_names (const MgStackSet *set, const MgStackFrame *frame,
                                 gboolean return_address, const MgStackNamer *namer);

/* Writes the stacks of the processes flagged in processes (one flag per
 * process; NULL: all), named through namer (NULL:
 * module + offset), sampled in windows overlapping
 * (start_s, end_s] to path, replaced atomically. */
gboolean mg_export_folded (MgProfile *profile, const char *path, const gboolean *processes,
                           double start_s,
                           double end_s, const MgStackNamer *namer, GError **error);

G_END_DECLS
