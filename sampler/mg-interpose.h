/* SPDX-License-Identifier: GPL-3.0-or-later */
/* exec and _exit interposition: the record is closed (EXECED or EXITED)
 * before the process image goes away. */
#ifndef MG_INTERPOSE_H
#define MG_INTERPOSE_H

#include <stdbool.h>

/* Looks the real functions up once, early (never inside a vfork child). */
__attribute__((visibility("hidden"))) void mg_interpose_resolve (void);
/* Closes the record as EXECED; false if this process was not sampling. */
__attribute__((visibility("hidden"))) bool mg_sampler_finish_for_exec (void);

#endif /* MG_INTERPOSE_H */
