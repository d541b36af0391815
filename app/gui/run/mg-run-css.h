/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run dialog's and live view's styles (ui/mg-run.css), loaded once per
 * display. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void mg_run_css_load (void);

G_END_DECLS
