/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile's call stacks (docs/profile-format.md, member 15): the stacks
 * sampled in a time range and a selection of processes, each with its
 * count, identical stacks of different processes merged. Frames are
 * (module, ELF virtual address), the module table naming each module by
 * path and build-id; naming a frame is the symboliser's business
 * (mg-export-folded.h). */
#pragma once

#include <glib.h>

#include "mg-profile.h"

G_BEGIN_DECLS

/* A frame outside every known module: vaddr is the absolute address. */
#define MG_STACK_MODULE_UNKNOWN G_MAXUINT32

typedef struct {
  guint32 module;          /* index into the module table, or MG_STACK_MODULE_UNKNOWN */
  guint64 vaddr;           /* the ELF virtual address in the module; frames after the
                            * first are return addresses (symbolise at vaddr - 1) */
} MgStackFrame;

/* Flags of a stack, as the record's (format/mg-record-stacks.h). */
enum {
  MG_STACK_TRUNCATED = 1u << 0,
  MG_STACK_UNKNOWN_FRAME = 1u << 1,
};

typedef struct {
  const char *path;        /* as the loader named it */
  const guint8 *build_id;  /* NULL when the module had none */
  gsize build_id_len;
} MgStackModule;

typedef struct _MgStackSet MgStackSet;

/* The stacks of process (-1: every process) whose sample windows overlap
 * (start_s, end_s] (seconds from the run's start; -INFINITY, INFINITY for
 * the whole run). */
MgStackSet *mg_stack_set_new (MgProfile *profile, int process, double start_s, double end_s);
void mg_stack_set_free (MgStackSet *set);

/* The profile the set was taken from (the set holds a reference). */
MgProfile *mg_stack_set_get_profile (const MgStackSet *set);

guint mg_stack_set_get_n_stacks (const MgStackSet *set);
/* Frames innermost first. */
const MgStackFrame *mg_stack_set_get_frames (const MgStackSet *set, guint stack, guint *n_frames,
                                             guint *flags);
guint64 mg_stack_set_get_count (const MgStackSet *set, guint stack);
guint64 mg_stack_set_get_total (const MgStackSet *set);

guint mg_stack_set_get_n_modules (const MgStackSet *set);
const MgStackModule *mg_stack_set_get_module (const MgStackSet *set, guint module);

/* Over the selected processes, the whole run: samples taken, and samples
 * that did not fit the process's table or a slot (not in any stack). */
guint64 mg_stack_set_get_taken (const MgStackSet *set);
guint64 mg_stack_set_get_lost (const MgStackSet *set);
/* Processes of the selection that recorded stacks. */
guint mg_stack_set_get_n_processes (const MgStackSet *set);
/* Of those, the ones whose stacks stopped because the program installed
 * its own handler for the sampler's signal (docs/sampler.md). */
guint mg_stack_set_get_n_stepped_aside (const MgStackSet *set);

/* Checks a stacks member read from a file of n_processes processes:
 * indices within their tables, windows in order. */
gboolean mg_stack_set_check_payload (GVariant *stacks, guint n_processes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgStackSet, mg_stack_set_free)

G_END_DECLS
