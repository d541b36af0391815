/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the Source view finds a file's text (docs/viewer.md, "Source"):
 * first through a lookup (the profile's stored sources once the window
 * gives one; the disk at the recorded path by default), else under the
 * chosen source folder, the recorded path's longest tail that exists
 * there: /build/proj/src/x.c under ~/proj is ~/proj/build/proj/src/x.c,
 * ~/proj/proj/src/x.c, ~/proj/src/x.c or ~/proj/x.c, the first found.
 * GTK-free, any thread. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The text of PATH as recorded, or NULL with ERROR set. */
typedef GBytes *(*MgSourceLookupFunc) (const char *path, gpointer user_data, GError **error);

/* The default lookup: the file at PATH on this machine. */
GBytes *mg_source_lookup_disk (const char *path, gpointer user_data, GError **error);

/* The path under FOLDER that PATH's longest existing tail names, or NULL. */
char *mg_source_map_to_folder (const char *path, const char *folder);

/* PATH's text through LOOKUP, else through FOLDER (NULL or "": none);
 * FOUND_AT: where it was read (PATH itself for the lookup). NULL when
 * neither has it: ERROR is the lookup's. */
GBytes *mg_source_find (const char *path, MgSourceLookupFunc lookup, gpointer user_data,
                        const char *folder, char **found_at, GError **error);

G_END_DECLS
