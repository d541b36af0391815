/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Linked into every built-in plugin: a failed initialise of one of ours
 * leaves nothing of its code in use once its cleanup has run (no thread,
 * signal handler or callback; its atfork handlers go with dlclose), so the
 * sampler may unload it; and what one holds (memory, close-on-exec
 * descriptors) all goes with an exec, so that a fork child that execs
 * before its first round need not call its stop and cleanup
 * (metrograph_plugin_ext.h, docs/plugin-api.md). */
#include "metrograph_plugin_ext.h"

METROGRAPH_PLUGIN_UNLOADABLE;
METROGRAPH_PLUGIN_EXEC_RELEASES_ALL;
