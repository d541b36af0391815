/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How the command line speaks on stderr: one line a message. A leaf that
 * every mode uses, so that the dispatcher (mg-cli.c) is called by none. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Prints "metrograph: <message>" as one line on stderr. */
void mg_cli_print_error (const char *format, ...) G_GNUC_PRINTF (1, 2);

/* "cannot read the profile: <why> (<what to do>)" for @input, which
 * mg_profile_load refused with @error; a run folder given instead of its
 * profile is named as such, with metrograph --recover. */
void mg_cli_print_profile_error (const char *input, const GError *error);

/* Each error and warning of @diagnostics (MgDiagnostic*, notes left out)
 * as such a line. */
void mg_cli_print_diagnostic_list (GPtrArray *diagnostics);

/* Each of @lines (NULL-terminated, each a whole line with its newline) on
 * stderr as it is. */
void mg_cli_print_lines (const char *const *lines);

G_END_DECLS
