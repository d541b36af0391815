/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "Run again": the settings a profile was recorded with, read from its run
 * facts (command line, working folder, interval, samples, processes), the
 * metrics it holds and the precision of its processes' series. GTK-free. */
#pragma once

#include "defs/mg-catalogue.h"
#include "profile/mg-profile.h"
#include "mg-run-settings.h"

G_BEGIN_DECLS

/* @catalogue (may be NULL) turns the recorded metrics into toggles: every
 * switchable metric on exactly when the profile holds it. */
MgRunSettings *mg_run_settings_new_from_profile (MgProfile *profile, MgCatalogue *catalogue);

G_END_DECLS
