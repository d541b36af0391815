/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The merge's side of call stacks: each record's stack section
 * (format/mg-record-stacks.h) into the profile's stacks member
 * (docs/profile-format.md, member 15), frames turned from addresses into
 * (module, ELF virtual address) with the record's module table. Each
 * record's stacks are folded in as it is read: every distinct stack of
 * the run is held once, shared by the processes that sampled it, and per
 * process only its stacks' numbers, windows and counts. */
#pragma once

#include <glib.h>

#include "mg-profile.h"
#include "mg-profile-layout.h"
#include "mg-record-reader.h"

G_BEGIN_DECLS

typedef struct _MgStackBuilder MgStackBuilder;

MgStackBuilder *mg_stack_builder_new (void);
void mg_stack_builder_free (MgStackBuilder *self);
/* Adds r's stacks to process (an index of the profile); times become
 * seconds as (mono_ns - base_ns) / 1e9. A record without a section adds
 * nothing. */
void mg_stack_builder_add_record (MgStackBuilder *self, guint process, const MgRecordFile *r,
                                  gint64 base_ns);
/* The same for a record whose slots were read from a later one than its
 * first (r->first): TIMES gives each slot's start and end (mono ns) from
 * the first, N_TIMES slots (mg_live_merge_get_slot_times ()). */
void mg_stack_builder_add_record_times (MgStackBuilder *self, guint process,
                                        const MgRecordFile *r, gint64 base_ns,
                                        const gint64 *times, guint n_times);
/* The member (a new reference, not floating). Once: the processes'
 * windows and counts move into it, not copied. */
GVariant *mg_stack_builder_end (MgStackBuilder *self);
/* The threads member (MG_PAYLOAD_THREADS_TYPE; a new reference, not
 * floating): each process's named threads, one per ordinal. */
GVariant *mg_stack_builder_end_threads (MgStackBuilder *self);
/* Gives the members to profile (a profile just built). */
void mg_stack_builder_finish_profile (MgStackBuilder *self, MgProfile *profile);
/* The member of a profile without stacks. */
GVariant *mg_stack_payload_empty (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgStackBuilder, mg_stack_builder_free)

G_END_DECLS
