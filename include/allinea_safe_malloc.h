/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metrograph implementation of the MAP custom metric plugin interface:
 * async-signal-safe memory management. Never calls libc's allocator. */
#ifndef ALLINEA_SAFE_MALLOC_H
#define ALLINEA_SAFE_MALLOC_H

#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Allocates size bytes; on exhaustion prints an error on stderr and aborts. */
extern void *allinea_safe_malloc(size_t size);
/** Frees memory from allinea_safe_malloc/calloc/realloc. NULL is ignored. */
extern void allinea_safe_free(void *ptr);
/** Allocates nmemb * size zeroed bytes (overflow-checked). */
extern void *allinea_safe_calloc(size_t nmemb, size_t size);
/** Resizes (or, with NULL, allocates) a block from the safe allocator. */
extern void *allinea_safe_realloc(void *ptr, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ALLINEA_SAFE_MALLOC_H */
