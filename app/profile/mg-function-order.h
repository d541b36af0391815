/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The order of functions in every list of them (the report's "Where the
 * time went", the window's Functions table): the larger share first;
 * between equal shares (the functions of a call chain that every such
 * stack passes through) callers first, as the chain reads (_start, main,
 * solve: most frames below it in a stack first); then by name in byte
 * order, so that the report and the window list them alike and the same
 * every time. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One function as the order sees it. */
typedef struct {
  guint64 count;     /* its samples (self or total, as the list shows) */
  guint height;      /* most frames below it in a stack with samples, inlined ones too */
  const char *name;  /* as shown */
} MgFunctionOrderKey;

/* < 0 when A comes before B, > 0 after, 0 for one function. */
int mg_function_order_compare (const MgFunctionOrderKey *a, const MgFunctionOrderKey *b);

G_END_DECLS
