/* SPDX-License-Identifier: GPL-3.0-or-later */
/* For tests only: what the session does off the main thread. */
#pragma once

#include "mg-run-session.h"

G_BEGIN_DECLS

#include "mg-run-end.h"

/* Called with the profile's path in the thread that saves it, just before
 * the save. */
typedef MgRunEndSaveHook MgRunSessionSaveHook;

void mg_run_session_set_save_hook (MgRunSession *self, MgRunSessionSaveHook hook, gpointer data);

G_END_DECLS
