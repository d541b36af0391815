/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The call stacks as format 7 stores them (member 15): one stack table
 * for the run, each process's windows and counts packed. In memory the
 * profile keeps them as format 6 laid them out (MG_PAYLOAD_STACKS_TYPE),
 * which every reader takes; these two convert at save and load. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The member format 7 stores for stacks (MG_PAYLOAD_STACKS_TYPE), a new
 * reference: frames deduplicated across processes, windows and counts
 * packed (docs/profile-format.md, member 15). */
GVariant *mg_stack_pack (GVariant *stacks);

/* What of a format-7 member is cheap to check when a profile is opened
 * (no inflating, no frames): its module paths are names, each process's
 * index is within n_processes and its stacks within the table. What
 * mg_stack_unpack checks beside (the frames' modules, the packed windows
 * and counts) waits for the first use. */
gboolean mg_stack_packed_check (GVariant *packed, guint n_processes);

/* The stacks (MG_PAYLOAD_STACKS_TYPE) a format-7 member holds, a new
 * reference, or NULL when it is damaged (an index out of range, packed
 * bytes that do not unpack to what they say, a frame in a module it does
 * not have). Module paths are the caller's (mg_stack_packed_check). */
GVariant *mg_stack_unpack (GVariant *packed);
/* Of the same, the processes whose index (member 8's) is process: an
 * a(ittua(a(ut)u)adada(uuu)), a new reference, or NULL when one of them
 * is damaged. Reading one process costs its own bytes only. */
GVariant *mg_stack_unpack_process (GVariant *packed, int process);

G_END_DECLS
