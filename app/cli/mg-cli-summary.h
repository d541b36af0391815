/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The few lines --profile prints on stderr at the end: where the profile is,
 * what it holds, one line for what this machine could not measure and one
 * for metrics that failed; with --verbose every plugin and metric error in
 * full instead; then the ranks selected and the metrics asked for that got
 * nothing. */
#pragma once

#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* stopped_after_s > 0: --stop-after ended the program. */
void mg_cli_print_summary (MgProfile *profile, const char *output, double stopped_after_s,
                           gboolean verbose);

/* --select-ranks: the selection and the ranks the profile holds. */
void mg_cli_print_rank_selection (MgProfile *profile, const char *select_ranks);

/* --enable-metrics asked for these and got nothing for want of their
 * plugin (mg_unavailable_find_asked ()): one line each. FALSE when there
 * was one. */
gboolean mg_cli_print_unmeasured (GPtrArray *asked);

G_END_DECLS
