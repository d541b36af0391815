/* The few lines --profile prints on stderr at the end: where the profile is,
 * what it holds, and every plugin or metric error once with its count. */
#pragma once

#include "mg-profile.h"

G_BEGIN_DECLS

/* stopped_after_s > 0: --stop-after ended the program. */
void mg_cli_print_summary (MgProfile *profile, const char *output, double stopped_after_s);

G_END_DECLS
