/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer's Report page: the performance report of the profile (the
 * same content as metrograph --report) in native widgets, with the partial
 * report files that were refused and why. */
#pragma once

#include <gtk/gtk.h>

#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* @profile_path: shown in the header (may be NULL). */
GtkWidget *mg_report_view_new (MgProfile *profile, const char *profile_path);

G_END_DECLS
