/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Debug info by build-id from the debuginfod servers DEBUGINFOD_URLS
 * names, for a module whose own file is gone or was rebuilt (for a file
 * that is there, libdwfl's standard search asks them itself). Shared by
 * the files of app/symbols only. */
#pragma once

#include <elfutils/libdwfl.h>
#include <glib.h>

G_BEGIN_DECLS

/* The debug file of build-id HEX, open, its path in *PATH (in the
 * debuginfod cache); -1 when no server is set, libdebuginfod is not
 * installed or no server has it. Uses DWFL's client. */
int mg_debuginfod_find_debuginfo (Dwfl *dwfl, const char *hex, char **path);

G_END_DECLS
