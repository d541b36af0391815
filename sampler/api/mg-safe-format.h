/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Async-signal-safe printf-style formatting for the sampler and the API.
 * libc only, no allocation, no locale. */
#ifndef MG_SAFE_FORMAT_H
#define MG_SAFE_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

#include "mg-api-internal.h"

/* snprintf semantics: writes at most size bytes including the NUL (nothing
 * when size is 0) and returns the length the full output would have.
 * Conversions: d i u o x X c s p % f F e E g G with flags "-+ #0", width and
 * precision (also '*'), length modifiers hh h l ll j z t L. %n is refused
 * (printed literally). */
MG_HIDDEN int mg_safe_vsnprintf (char *buf, size_t size, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
MG_HIDDEN int mg_safe_snprintf (char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* MG_SAFE_FORMAT_H */
