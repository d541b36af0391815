/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Why the program could not be started, in words that name the real
 * cause: execve's ENOENT for a file that exists is its #! interpreter
 * missing, and ENOEXEC for a file without a #! line is a script that only
 * a shell would run (with /bin/sh). GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The message for posix_spawn's @error_number on @path (the file that was
 * run), named @name as the user gave it. */
char *mg_spawn_failure_describe (const char *path, const char *name, int error_number);

G_END_DECLS
