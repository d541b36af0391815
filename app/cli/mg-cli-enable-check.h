/* SPDX-License-Identifier: GPL-3.0-or-later */
/* After a run: the metrics asked for with --enable-metrics that got nothing
 * because their plugin is unavailable on this machine. */
#pragma once

#include "defs/mg-catalogue.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* Checks that every id given to --enable-metrics got something: a metric,
 * or a group with one metric, that recorded no value because its plugin is
 * unavailable is said (one line each). Returns FALSE when one was. */
gboolean mg_cli_check_enabled (MgProfile *profile, MgCatalogue *catalogue,
                               const char *const *enable_ids);

G_END_DECLS
