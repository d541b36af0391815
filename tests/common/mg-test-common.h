/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every test area shares: temporary trees. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Removes path and everything below it; symbolic links are removed, not
 * followed. Missing paths are fine (a test cleans up what it may not have
 * made). */
void mg_test_remove_tree (const char *path);

/* A new folder for one test, "<tmp>/metrograph-test-<name>-XXXXXX"; free it
 * with mg_test_remove_tree. */
char *mg_test_make_dir (const char *name);

G_END_DECLS
