/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers of the run tests: catalogues, the bundled workload, waiting on the
 * main loop. */
#pragma once

#include "mg-catalogue.h"

G_BEGIN_DECLS

/* tests/session/metrics (fixture.xml, broken.xml), then the built-in ones. */
MgCatalogue *run_test_fixture_catalogue (void);
/* The built-in metrics only. */
MgCatalogue *run_test_builtin_catalogue (void);
char *run_test_fixture_metrics_dir (void);
/* Absolute path of a program built in tests/session. */
char *run_test_program (const char *name);
/* Iterates the default main context until check returns TRUE or timeout. */
gboolean run_test_wait (gboolean (*check) (gpointer), gpointer data, double timeout_s);

G_END_DECLS
