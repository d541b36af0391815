/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Starting the accessibility bus early (mg-a11y-bus.c). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Asks the session bus to start the accessibility bus (org.a11y.Bus) and
 * returns without waiting, unless GTK will not use it (GTK_A11Y names
 * another backend, or AT_SPI_BUS_ADDRESS gives it). FALSE when it did not
 * ask (that, or no session bus). */
gboolean mg_a11y_bus_prestart (void);

G_END_DECLS
