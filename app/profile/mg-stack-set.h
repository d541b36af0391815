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
  /* A wait in an MPI call, sampled in wall-clock time: [the MPI wrapper's
   * MPI_<name>, the call site] (docs/sampler.md, "MPI waits"). */
  MG_STACK_MPI = 1u << 2,
  /* Bits 16 to 31: the ordinal of the thread the stack was sampled in,
   * in its process, + 1 (0 the main thread, then 1, 2, … in the order the
   * sampler first saw them); 0 when not known (profiles of records from
   * before, docs/profile-format.md). mg_stack_set_get_frames gives the
   * flags without them: mg_stack_set_get_thread. */
  MG_STACK_THREAD_SHIFT = 16,
  MG_STACK_THREAD_MASK = 0xffffu << 16,
};

/* The thread filter of mg_stack_set_new_for_thread: every thread. */
#define MG_STACK_THREAD_ALL (-1)
/* The main thread's ordinal. */
#define MG_STACK_THREAD_MAIN 0

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
/* The same, of one thread of each process: thread is an ordinal
 * (MG_STACK_THREAD_MAIN, 1, …), or MG_STACK_THREAD_ALL, where the same
 * stack sampled in several threads is one stack. */
MgStackSet *mg_stack_set_new_for_thread (MgProfile *profile, int process, int thread,
                                         double start_s, double end_s);
/* The same, of the processes whose flag is set in processes (one per
 * process of the profile; NULL: every process). */
MgStackSet *mg_stack_set_new_for_processes (MgProfile *profile, const gboolean *processes,
                                            double start_s, double end_s);
/* The same, of one thread of each (an ordinal, or MG_STACK_THREAD_ALL). */
MgStackSet *mg_stack_set_new_for_processes_thread (MgProfile *profile, const gboolean *processes,
                                                   int thread, double start_s, double end_s);
void mg_stack_set_free (MgStackSet *set);

/* The profile the set was taken from (the set holds a reference). */
MgProfile *mg_stack_set_get_profile (const MgStackSet *set);

guint mg_stack_set_get_n_stacks (const MgStackSet *set);
/* Frames innermost first. */
const MgStackFrame *mg_stack_set_get_frames (const MgStackSet *set, guint stack, guint *n_frames,
                                             guint *flags);
guint64 mg_stack_set_get_count (const MgStackSet *set, guint stack);
/* The ordinal of the thread the stack was sampled in; -1 when not known
 * or, in a set of every thread, when it was sampled in several. */
int mg_stack_set_get_thread (const MgStackSet *set, guint stack);
/* 1 + the highest thread ordinal in the selected processes' stacks
 * (whatever the thread filter and time range): the threads a filter may
 * name; 0 when none is known. */
guint mg_stack_set_get_n_threads (const MgStackSet *set);
guint64 mg_stack_set_get_total (const MgStackSet *set);

guint mg_stack_set_get_n_modules (const MgStackSet *set);
const MgStackModule *mg_stack_set_get_module (const MgStackSet *set, guint module);
/* Whether the module of set may not be named from the file at its path:
 * it has no build-id to check that file by, and the file was modified
 * after the run started (rebuilt meanwhile: its names would be another
 * build's). */
gboolean mg_stack_set_module_replaced (const MgStackSet *set, guint module);

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
/* Checks a stacks member's modules (a(ayay)): every path is a name. */
gboolean mg_stack_set_check_modules (GVariant *modules);

/* A profile opened from a file decodes its call stacks on first use (the
 * first stack set, table, windows or this call, whichever thread asks),
 * once: opening a 1024-rank profile does not unpack hundreds of megabytes
 * it may never show. Returns FALSE with MG_PROFILE_ERROR_CORRUPT naming
 * the file when they are damaged: the profile then reads as having no
 * call stacks, its metrics as they are. TRUE for a profile built in
 * memory or one without stacks. */
gboolean mg_profile_read_stacks (MgProfile *profile, GError **error);

/* Over every process that recorded stacks, read without decoding them
 * (what the run's summary shows): samples taken and not stored, the
 * processes, those whose stacks stepped aside. */
typedef struct {
  guint64 taken;
  guint64 lost;
  /* Of lost, those of processes that did not end by themselves (killed,
   * or still running at the merge): besides a full table, the samples
   * taken after their last round, which no window holds. A process that
   * exits or execs moves them into its last window. */
  guint64 lost_unended;
  guint n_processes;
  guint n_stepped_aside;
  /* Whose timers or handler could not be set up (MG_RECORD_STACKS_FAILED:
   * a tight RLIMIT_SIGPENDING, no memory). */
  guint n_failed;
} MgStackCounts;

void mg_profile_get_stack_counts (MgProfile *profile, MgStackCounts *counts);

/* The module table of the profile's stacks, read without decoding them;
 * the module's pointers stay valid while the profile lives. */
guint mg_profile_get_n_stack_modules (MgProfile *profile);
void mg_profile_get_stack_module (MgProfile *profile, guint module, MgStackModule *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgStackSet, mg_stack_set_free)

G_END_DECLS
