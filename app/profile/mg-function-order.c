/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "mg-function-order.h"

int
mg_function_order_compare (const MgFunctionOrderKey *a, const MgFunctionOrderKey *b)
{
  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  if (a->height != b->height)
    return a->height > b->height ? -1 : 1;
  return strcmp (a->name, b->name);
}
