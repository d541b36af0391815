/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run's command line as one line a shell would read back: plain words
 * as they are, others quoted. Shared by the JSON export and the reports.
 * GTK-free. */
#pragma once

#include "mg-profile.h"

G_BEGIN_DECLS

char *mg_shell_line_from_run (const MgRunInfo *run);

G_END_DECLS
