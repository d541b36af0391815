/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Loading a profile file off the main thread, GIO style, so a window never
 * freezes however large the file is. GTK-free. */
#pragma once

#include <gio/gio.h>

#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* Loads file (a local file) with mg_profile_load () in a worker thread. */
void mg_profile_loader_load_async (GFile *file, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data);
/* The profile, or NULL with the loader's error (naming the file). */
MgProfile *mg_profile_loader_load_finish (GAsyncResult *result, GError **error);
/* The file a load was started for. */
GFile *mg_profile_loader_get_file (GAsyncResult *result);

G_END_DECLS
