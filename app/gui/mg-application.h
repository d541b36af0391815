/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer application: one window per profile, a start window when
 * nothing is open, and the application-wide actions (open, profile, about,
 * shortcuts, quit). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MG_TYPE_APPLICATION (mg_application_get_type ())
G_DECLARE_FINAL_TYPE (MgApplication, mg_application, MG, APPLICATION, GtkApplication)

MgApplication *mg_application_new (void);

G_END_DECLS
