/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metrograph implementation of the MAP custom metric plugin interface:
 * async-signal-safe I/O whose bytes the profiler leaves out of its own I/O
 * accounting. */
#ifndef ALLINEA_SAFE_SYSCALLS_H
#define ALLINEA_SAFE_SYSCALLS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ALLINEA_SAFE_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define ALLINEA_SAFE_PRINTF_LIKE(f, a)
#endif

/** The time on the clock the sampler stamps samples with (CLOCK_MONOTONIC). */
struct timespec allinea_get_current_time(void);

extern int allinea_safe_close(int fd);
extern void allinea_safe_fprintf(int fd, const char *format, ...)
    ALLINEA_SAFE_PRINTF_LIKE(2, 3);
extern int allinea_safe_open(const char *file, int oflags, ...);
extern void allinea_safe_printf(const char *format, ...)
    ALLINEA_SAFE_PRINTF_LIKE(1, 2);
extern ssize_t allinea_safe_read(int fd, void *buf, size_t count);
/** Reads until end of file or until count bytes are in buf. */
extern ssize_t allinea_safe_read_all(int fd, void *buf, size_t count);
/** Reads the whole file into a buffer from allinea_safe_malloc(), adds a
 * terminating NUL; *count receives the size allocated. Free it with
 * allinea_safe_free(). */
extern ssize_t allinea_safe_read_all_with_alloc(int fd, void **buf, size_t *count);
/** Reads one line, drops the final newline, NUL-terminates; a line longer than
 * the buffer is truncated and the rest of it skipped. 0 at end of file. */
extern ssize_t allinea_safe_read_line(int fd, void *buf, size_t count);
extern void allinea_safe_vfprintf(int fd, const char *format, va_list ap);
extern ssize_t allinea_safe_write(int fd, const void *buf, size_t count);

#ifdef __cplusplus
}
#endif

#endif /* ALLINEA_SAFE_SYSCALLS_H */
