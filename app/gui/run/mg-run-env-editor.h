/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run dialog's environment editor, in a GtkListBox it fills: one row
 * per variable ("NAME=value" sets it, "-NAME" removes it from the program's
 * environment) with a remove button. Every edit is written into the
 * MgRunSettings (env-set, env-unset); mg_run_env_editor_sync() rebuilds the
 * rows only when the settings say something else than they do. */
#pragma once

#include <gtk/gtk.h>

#include "session/mg-run-settings.h"

G_BEGIN_DECLS

#define MG_TYPE_RUN_ENV_EDITOR (mg_run_env_editor_get_type ())
G_DECLARE_FINAL_TYPE (MgRunEnvEditor, mg_run_env_editor, MG, RUN_ENV_EDITOR, GObject)

/* list: the box to fill (owned by the caller, outlives this object). */
MgRunEnvEditor *mg_run_env_editor_new (GtkListBox *list, MgRunSettings *settings);
/* Appends a row with text (may be NULL), writes the settings and returns
 * the row's entry. */
GtkWidget *mg_run_env_editor_add (MgRunEnvEditor *self, const char *text);
void mg_run_env_editor_sync (MgRunEnvEditor *self);

G_END_DECLS
