/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A Score-P plugin's finalize comes before the destructors of its statics
 * (docs/scorep-plugins.md, "At exit"). C++ plugins keep their state in
 * statics whose destructors are registered with __cxa_atexit when they are
 * made: while the plugin loads and starts, or later, by a read. At exit
 * those run either among the exit handlers (registered after main began:
 * before the sampler's own handler) or from the plugin's fini through
 * __cxa_finalize in the dynamic linker's _dl_fini (registered before main:
 * _dl_fini itself comes before the handlers the preloaded sampler
 * registered). So the sampler's exit handler always came too late. Instead
 * __cxa_atexit is interposed: a destructor registered by a plugin's library,
 * or by any library while a plugin loads (its C++ runtime), is wrapped so
 * that sampling ends (and finalize runs) just before the first of them. */
#ifndef MG_SCOREP_STATICS_H
#define MG_SCOREP_STATICS_H

#include <stddef.h>

#include "mg-sampler-state.h"

/* What a wrapped destructor calls first, with its source: set once, before
 * any plugin loads, by the lifecycle, which ends sampling there (and so
 * runs the plugin's finalize) while that source still runs. */
typedef void (*MgScorepStaticsHook) (int source);
MG_INTERNAL void mg_scorep_statics_set_hook (MgScorepStaticsHook hook);

/* Destructors registered on this thread from now on belong to source
 * @source (its library and what it loads); -1 ends that. */
MG_INTERNAL void mg_scorep_statics_loading (int source);
/* Later destructors registered by the library holding @address (a function
 * of the plugin) belong to source @source. */
MG_INTERNAL void mg_scorep_statics_library (int source, const void *address);

#endif /* MG_SCOREP_STATICS_H */
