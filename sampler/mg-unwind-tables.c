/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A module's unwind tables mapped in whole when the unwinder first sees it
 * (mg-unwind-internal.h). The handlers read .eh_frame_hdr and .eh_frame
 * through the module's file mapping; each first read of a page there is a
 * fault that the kernel answers by mapping up to 16 pages around it
 * (fault-around: debugfs's fault_around_bytes, 64 KiB), so the program's RSS rose by 64 KiB steps during the run that
 * nothing accounted for. Mapped at once on the sampler thread instead, and
 * the pages that this mapped (and not the program before) counted from
 * /proc/self/pagemap, so that the memory metrics can leave them out. */
#include <fcntl.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mg-unwind-internal.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

#define FAULT_AROUND (64u * 1024) /* the kernel's default fault_around_bytes */
#define PAGEMAP_PRESENT (1ull << 63)

/* In the sampler, the plugin API's pread, whose calls the I/O metrics leave
 * out; plain pread where the unwinder is built alone (tests, benches). */
extern ssize_t metrograph_safe_pread (int fd, void *buf, size_t count, off_t offset) __attribute__ ((weak));

/* Pages of [lo, hi) mapped in this process, or 0 when pagemap cannot be
 * read (then nothing is counted: better too little left out than too much). */
static uint64_t
present_pages (uint64_t lo, uint64_t hi, uint64_t page)
{
  int fd = open ("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  uint64_t n = 0, entries[64];
  for (uint64_t at = lo; at < hi;)
    {
      uint64_t count = (hi - at) / page < 64 ? (hi - at) / page : 64;
      off_t offset = (off_t) (at / page * sizeof entries[0]);
      size_t want = (size_t) count * sizeof entries[0];
      ssize_t got = metrograph_safe_pread != NULL ? metrograph_safe_pread (fd, entries, want, offset)
                                                  : pread (fd, entries, want, offset);
      if (got != (ssize_t) want)
        break;
      for (uint64_t i = 0; i < count; i++)
        n += (entries[i] & PAGEMAP_PRESENT) != 0;
      at += count * page;
    }
  close (fd);
  return n;
}

uint64_t
mg_unwind_tables_map (const struct mg_eh_module *eh)
{
  const struct mg_eh_span *seg = eh->hdr ? mg_eh_module_span (eh, eh->hdr, 4) : NULL;
  if (seg == NULL)
    return 0;
  long p = sysconf (_SC_PAGESIZE);
  uint64_t page = p > 0 ? (uint64_t) p : 4096;
  /* From the fault-around window that holds the header (GNU ld puts
   * .eh_frame after it) to the segment's end, clipped to the segment's
   * mapping: what reads there could map. */
  uint64_t seg_lo = seg->lo / page * page, hi = (seg->hi + page - 1) / page * page;
  uint64_t lo = eh->hdr / FAULT_AROUND * FAULT_AROUND;
  if (lo < seg_lo)
    lo = seg_lo;
  uint64_t before = present_pages (lo, hi, page);
  if (madvise ((void *) (uintptr_t) lo, hi - lo, MADV_POPULATE_READ) != 0)
    {
      /* Before Linux 5.14: a read of each page does it (the loader's lock
       * is held, so the module stays mapped meanwhile). */
      for (uint64_t at = lo; at < hi; at += page)
        (void) *(volatile const char *) (uintptr_t) at;
    }
  uint64_t after = present_pages (lo, hi, page);
  return after > before ? (after - before) * page : 0;
}
