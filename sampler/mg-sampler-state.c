/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one instance of the sampler's process-wide state (mg-sampler-state.h),
 * apart from the lifecycle that fills it, so that its readers depend on the
 * state alone. */
#include "mg-sampler-state.h"

MgSampler mg_sampler = { .lock_fd = -1 };
