/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Colour specifications (app/defs/mg-colour.c), as a definition file's
 * <colour> holds them: any bytes up to the first NUL. */
#include <glib.h>

#include "fuzz-input.h"
#include "defs/mg-colour.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *spec = g_strndup ((const char *) data, size);
  g_autoptr (GError) error = NULL;
  MgRgba rgba;

  if (mg_colour_parse (spec, &rgba, &error))
    g_assert (rgba.r >= 0 && rgba.r <= 1 && rgba.g >= 0 && rgba.g <= 1 && rgba.b >= 0
              && rgba.b <= 1 && rgba.a >= 0 && rgba.a <= 1);
  else
    g_assert (error != NULL && error->message[0] != '\0');
  return 0;
}
