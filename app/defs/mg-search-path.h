/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where metric definition files are found, first folder wins:
 * --metrics-path folders, $METROGRAPH_METRICS_PATH, $ALLINEA_CONFIG_DIR/map/metrics
 * (~/.allinea/map/metrics), $XDG_DATA_HOME/metrograph/metrics, then the
 * installed metrics folder. Also resolves sharedLibrary and preload names.
 * GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MG_SEARCH_PATH_ERROR (mg_search_path_error_quark ())
GQuark mg_search_path_error_quark (void);

typedef enum {
  MG_SEARCH_PATH_ERROR_ESCAPES,   /* absolute, or leaves its folder with ".." */
  MG_SEARCH_PATH_ERROR_NOT_FOUND,
  MG_SEARCH_PATH_ERROR_INVALID,
} MgSearchPathError;

typedef struct _MgSearchPath MgSearchPath;

/* The full path: @cli_dirs (may be NULL), then the environment, then
 * @installed_dir (may be NULL; the caller knows the build tree from an
 * installation). */
MgSearchPath *mg_search_path_new (const char *const *cli_dirs, const char *installed_dir);
/* Exactly these folders, in this order (tests, GUI preferences). */
MgSearchPath *mg_search_path_new_for_dirs (const char *const *dirs);
void mg_search_path_free (MgSearchPath *self);

/* Absolute folders in order, duplicates removed, existing or not. */
const char *const *mg_search_path_get_dirs (MgSearchPath *self);
/* The *.xml files of the existing folders: folder order, then alphabetical
 * within a folder, not recursive. A folder that exists but cannot be read
 * adds a warning to @diagnostics (may be NULL). */
GPtrArray *mg_search_path_list_files (MgSearchPath *self, GPtrArray *diagnostics);
/* Absolute path of a sharedLibrary or preload @name written in
 * @definition_file: beside that file first, then (bare names only) in the
 * other folders of the path. */
char *mg_search_path_resolve (MgSearchPath *self, const char *definition_file,
                              const char *name, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgSearchPath, mg_search_path_free)

G_END_DECLS
