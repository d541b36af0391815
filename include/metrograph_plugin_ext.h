/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metrograph extensions to the MAP metric plugin API. Optional: a plugin that
 * must also run under other profilers looks these up at run time with
 * dlsym(RTLD_DEFAULT, "metrograph_get_safe_io_counts") instead of linking
 * them, and does without when they are absent. */
#ifndef METROGRAPH_PLUGIN_EXT_H
#define METROGRAPH_PLUGIN_EXT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* I/O done through the allinea_safe_* functions (by plugins and by the
 * sampler itself) in this process, so that I/O metrics can leave it out. */
struct metrograph_safe_io_counts {
  uint64_t bytes_read;
  uint64_t bytes_written;
  uint64_t read_calls;   /* read(2)-family system calls made */
  uint64_t write_calls;
};

/* Fills *out; async-signal-safe. Returns 0. */
int metrograph_get_safe_io_counts (struct metrograph_safe_io_counts *out);
typedef int (*metrograph_get_safe_io_counts_fn) (struct metrograph_safe_io_counts *out);

#ifdef __cplusplus
}
#endif

#endif /* METROGRAPH_PLUGIN_EXT_H */
