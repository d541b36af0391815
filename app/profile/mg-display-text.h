/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A name of the run (a program, a module, a function) made fit for one
 * line of display: Linux names are bytes, and may hold a newline or a tab
 * (a program called so), which broke the run's summary line and the text
 * report's columns. Display only: the profile keeps the bytes. GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* text as valid UTF-8 (invalid sequences replaced), with each control
 * character written as an escape: \n, \t, \r, else \xHH. */
char *mg_display_one_line (const char *text);

/* The columns valid UTF-8 text takes in a terminal or a monospace font:
 * 2 for each East Asian wide or fullwidth character (計), 0 for a
 * combining mark or other zero-width character, 1 for the others. For
 * aligning columns of names (the text report), which a count of
 * characters misaligns by one column per wide character. */
glong mg_display_width (const char *text);

G_END_DECLS
