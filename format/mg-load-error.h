/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Why dlopen could not load a plugin, told from dlerror's text so that the
 * message names the cause: the plugin's own file not found, a library it
 * needs not found (named after the plugin, not in its place), or a symbol
 * it needs that no loaded library defines. Used by the sampler's MAP
 * loader and by the Score-P loader and probe. libc only, no allocation. */
#ifndef MG_LOAD_ERROR_H
#define MG_LOAD_ERROR_H

#include <stddef.h>

/* Into out (len bytes, always terminated): the explanation for the
 * library (as given to dlopen) and dlerror's detail (may be NULL). */
void mg_load_error_explain (const char *library, const char *detail, char *out, size_t len);

#endif /* MG_LOAD_ERROR_H */
