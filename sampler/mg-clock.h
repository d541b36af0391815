/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sampler's one clock for spans and deadlines (CLOCK_MONOTONIC, ns). */
#ifndef MG_CLOCK_H
#define MG_CLOCK_H

#include <stdint.h>

__attribute__((visibility("hidden"))) int64_t mg_now_ns (void);

#endif /* MG_CLOCK_H */
