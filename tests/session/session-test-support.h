/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers of the run tests: catalogues, the bundled workload, waiting on the
 * main loop. */
#pragma once

#include "defs/mg-catalogue.h"

G_BEGIN_DECLS

/* tests/session/metrics (fixture.xml, broken.xml), then the built-in ones. */
MgCatalogue *session_test_fixture_catalogue (void);
/* The built-in metrics only. */
MgCatalogue *session_test_builtin_catalogue (void);
/* Creates @dir with the faulty test plugin (tests/sampler) beside a
 * definition of its metrics ft_hang and ft_crash (off by default), whose
 * getters never return from their 5th call and crash at their 20th; the catalogue of @dir, then the built-in
 * metrics. session_test_remove_hang_metrics removes @dir. */
MgCatalogue *session_test_hang_catalogue (const char *dir);
void session_test_remove_hang_metrics (const char *dir);
char *session_test_fixture_metrics_dir (void);
/* Absolute path of a program built in tests/session. */
char *session_test_program (const char *name);
/* Iterates the default main context until check returns TRUE or timeout. */
gboolean session_test_wait (gboolean (*check) (gpointer), gpointer data, double timeout_s);

G_END_DECLS
