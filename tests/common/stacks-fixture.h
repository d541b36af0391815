/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile's call stacks (the stacks member, docs/profile-format.md,
 * member 15) made to order from a compact description, for every test
 * area that reads stacks (profile, plot, report, gui). One line a thing:
 *
 *   module /opt/demo/prog abcdef01     a module: its path, its build-id
 *                                      in hex (none when left out)
 *   processes 3                        what the member is checked against
 *                                      (default: the profile's processes)
 *   process 1 taken 100 lost 3 state 2 a process (its index); taken is the
 *                                      sum of its counts unless given,
 *                                      lost and state 0
 *   windows 0..0.5 0.5..1              its windows (start, end] in s;
 *   windows 0+0.25 1/3+0.25            also as start + length, numbers
 *   windows 100 over 4                 as A/B; or N even windows from 0
 *   0 main;a;c 30 thread 1 mpi         COUNT samples of a stack in
 *                                      window 0 (one count entry, in the
 *                                      order of the lines)
 *   stack main;b                       a stack of the process with no
 *                                      count (yet): its number is fixed
 *                                      in the order stacks first appear
 *
 * Frames are callers first and the leaf last, as folded stacks read
 * ("main;compute;kernel"); "-" is a stack without frames. A frame is an
 * address (0x210), in module 0 when the fixture has modules, else outside
 * every module; "2:0x210" in module 2, "?:0x999" outside every module;
 * or a name given by stacks_fixture_name (), with an offset ("main+2").
 * The same frames and flags in one process are one stack. A stack's
 * options: "thread N" (the ordinal: the flags' thread bits hold N + 1),
 * "mpi", "truncated", "unknown-frame", "flags N" (bits as given).
 * Blank lines and lines from "#" on are skipped. A mistake stops the test
 * with a message naming the line. */
#pragma once

#include <glib.h>

#include "profile/mg-profile.h"

G_BEGIN_DECLS

typedef struct _StacksFixture StacksFixture;

StacksFixture *stacks_fixture_new (void);
void stacks_fixture_free (StacksFixture *self);

/* Adds a module (a "module" line for paths known at run time, such as
 * the test program's own); returns its index. */
guint stacks_fixture_add_module (StacksFixture *self, const char *path, const guint8 *build_id,
                                 gsize build_id_len);
/* Adds the module loaded in this process that holds @address, at @path,
 * with the build-id it was linked with (as the sampler records it; none
 * when it has none): a name for it is then never refused as another
 * build's, however recently the file was made. */
guint stacks_fixture_add_loaded_module (StacksFixture *self, const char *path,
                                        gconstpointer address);
/* Lets the description write NAME for the frame (module, vaddr), e.g. a
 * function of the test program whose address is known at run time. */
void stacks_fixture_name (StacksFixture *self, const char *name, guint32 module, guint64 vaddr);
/* Reads description's lines (more may follow in a later call: a process
 * goes on until the next "process" line). */
void stacks_fixture_read (StacksFixture *self, const char *description);

/* The member (MG_PAYLOAD_STACKS_TYPE; a new reference, not floating). */
GVariant *stacks_fixture_end (StacksFixture *self);
/* Replaces profile's stacks with the member, checked as the loader
 * checks one (mg_stack_set_check_payload ()). */
void stacks_fixture_install (StacksFixture *self, MgProfile *profile);

/* The whole round for a description that needs no names nor modules
 * known at run time. */
void stacks_fixture_set (MgProfile *profile, const char *description);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StacksFixture, stacks_fixture_free)

G_END_DECLS
