/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sampler's messages on stderr, one write(2) a line (async-signal-safe,
 * no allocation): diagnostics only when METROGRAPH_SAMPLER_VERBOSE=1, and
 * the few lines said whatever it is set to. A leaf every part may use. */
#ifndef MG_LOG_H
#define MG_LOG_H

#include <stdbool.h>

#define MG_LOG_INTERNAL __attribute__((visibility("hidden")))

MG_LOG_INTERNAL void mg_log_set_verbose (bool verbose);
/* "metrograph-sampler: <message>" when verbose. */
MG_LOG_INTERNAL void mg_log (const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The message as it is, always. */
MG_LOG_INTERNAL void mg_say (const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* MG_LOG_H */
