/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How every run ends, the same for both front ends (`metrograph --profile`
 * and the window's MgRunSession): the final merge, the profile's file name,
 * the save, the report, and what happens to the run folder. The records are
 * removed only once the profile is saved; when the merge or the save fails
 * they are the only copy of the run, so the folder is kept and the error
 * says which `metrograph --recover` writes the profile. A report that fails
 * after the save loses nothing: the profile is the whole run, and the error
 * says which `metrograph --report` writes the report from it. GTK-free, on
 * any thread. */
#pragma once

#include <gio/gio.h>

#include "profile/mg-profile-code.h"
#include "mg-run-assembly.h"
#include "mg-run-report.h"

G_BEGIN_DECLS

#define MG_RUN_END_ERROR (mg_run_end_error_quark ())
GQuark mg_run_end_error_quark (void);

typedef enum {
  MG_RUN_END_ERROR_MERGE, /* the records could not be merged: kept */
  MG_RUN_END_ERROR_SAVE,  /* the profile could not be written: records kept */
  MG_RUN_END_ERROR_REPORT, /* the profile is saved, its report could not be written */
} MgRunEndError;

/* Called with the profile's path in the thread that saves it, just before
 * the save (tests: to see where and when it happens, or to make it fail). */
typedef void (*MgRunEndSaveHook) (const char *path, gpointer data);

typedef struct {
  MgProfile *profile; /* the merged profile, also when its save failed */
  char *path;         /* where it was saved; NULL when it was not */
  MgRunReport report; /* once saved: the report's diagnostics, text or error */
} MgRunEnd;

/* What names the profile's frames and gathers its source text before the
 * save (mg-profile-code.h), both given by the front end, which may use
 * app/symbols where the session may not. */
typedef struct {
  const MgStackNamer *namer;        /* NULL: the profile carries no names */
  const MgSourceCollector *sources; /* NULL: and no source text */
  gsize source_limit;               /* bytes of source text at most */
} MgRunCodeRequest;

void mg_run_end_clear (MgRunEnd *end);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MgRunEnd, mg_run_end_clear)

/* The final merge of @self's records with @exit_status, the names of its
 * stacks' frames and their source text as @code asks (none when NULL),
 * then the save under
 * mg_run_assembly_choose_output (), then the report @report asks for (none
 * when NULL or its file is NULL). TRUE when the profile was saved, even if
 * its report was not (@end->report.error says why and what to do). FALSE
 * with MG_PROFILE_ERROR_NO_SAMPLES when nothing was sampled (nothing to
 * keep), or with MG_RUN_END_ERROR_MERGE or _SAVE, whose message says that
 * the records are kept and how to recover them; @end->profile is set when
 * only the save failed. */
gboolean mg_run_assembly_finish (MgRunAssembly *self, int exit_status,
                                 const MgRunCodeRequest *code,
                                 const MgRunReportRequest *report, MgRunEndSaveHook hook,
                                 gpointer hook_data, MgRunEnd *end, GError **error);

G_END_DECLS
