/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The threads a profile's stacks were sampled in (format 8,
 * docs/profile-format.md member 17): per process, each thread the sampler
 * gave a timer, by its ordinal (0 the main thread, as in the stacks'
 * flags: mg-stack-set.h), with its id and its name as the kernel held it
 * (the comm set by pthread_setname_np or prctl (PR_SET_NAME), at most 15
 * bytes, any bytes but NUL: the last one the sampler saw). */
#pragma once

#include <glib.h>

#include "mg-profile.h"

G_BEGIN_DECLS

/* Thread ordinal of process's name, raw bytes (NUL-terminated), or NULL
 * when the profile does not name it (a profile from before format 8, a
 * thread past the record's table); *tid (may be NULL) gets its id, 0 when
 * not named. Valid while the profile lives. */
const char *mg_profile_get_thread_name (MgProfile *self, guint process, guint ordinal,
                                        gint32 *tid);
/* The name to show for thread ordinal: of process, or with process -1 (all
 * processes) the name every process that names that ordinal gives it
 * (NULL when they differ); bytes that are not UTF-8 replaced by U+FFFD.
 * NULL when not named or named "". Free with g_free. */
char *mg_profile_dup_thread_display_name (MgProfile *self, int process, guint ordinal);
/* The one label of thread ordinal, translated, wherever a thread is
 * listed (the Code pane's thread list, the activity per thread): its name
 * and number when the profile names it ("worker-3 (thread 2)", "prog
 * (main thread)"), else its number alone ("Main Thread", "Thread 2").
 * profile may be NULL; process as for mg_profile_dup_thread_display_name.
 * Free with g_free. */
char *mg_profile_dup_thread_label (MgProfile *profile, int process, guint ordinal);
/* How many threads the profile names (every process). */
guint mg_profile_get_n_thread_names (MgProfile *self);

G_END_DECLS
