/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The images a process ran, in order: an exec keeps the process, and the
 * merge records each image it ran as the message of its start event and of
 * its exec events (docs/profile-format.md, "A process is a process"). */
#pragma once

#include "mg-profile.h"

G_BEGIN_DECLS

/* Whether the profile was merged with execs kept in their process (its
 * start events name their images); FALSE for profiles merged before, where
 * an exec ended a process and its new image was another. */
gboolean mg_profile_has_process_images (MgProfile *self);

/* The programs the process ran (names as bytes), the first first, the one
 * it became last; at least its program when the profile names no image. */
GPtrArray *mg_profile_dup_process_images (MgProfile *self, guint process);

/* The program it became, by its file name, and the one it started as when
 * that differs: "python3 (via env)". Shown text: invalid UTF-8 replaced. */
char *mg_profile_describe_process_program (MgProfile *self, guint process);

/* The same for every process, in one pass over the events: a list of
 * thousands of ranks. */
GPtrArray *mg_profile_describe_process_programs (MgProfile *self);

G_END_DECLS
