/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sampler's own mapped tables, counted by mincore (mg-own-memory.h). */
#include <sys/mman.h>
#include <unistd.h>

#include "mg-own-memory.h"

#define MAX_REGIONS 16

static struct
{
  uintptr_t start;
  size_t size;
} regions[MAX_REGIONS];
static unsigned n_regions;

void
mg_own_memory_add (const void *p, size_t size)
{
  unsigned n = __atomic_load_n (&n_regions, __ATOMIC_ACQUIRE);
  if (p == NULL || size == 0 || n == MAX_REGIONS)
    return;
  regions[n].start = (uintptr_t) p;
  regions[n].size = size;
  __atomic_store_n (&n_regions, n + 1, __ATOMIC_RELEASE);
}

/* Resident pages of one page-aligned region, a chunk of pages at a time. */
static uint64_t
resident_pages (uintptr_t start, size_t size, size_t page)
{
  unsigned char vec[256];
  uint64_t pages = 0;
  uintptr_t end = start + size;
  for (uintptr_t at = start - start % page; at < end; at += sizeof vec * page)
    {
      size_t len = end - at < sizeof vec * page ? end - at : sizeof vec * page;
      if (mincore ((void *) at, len, vec) != 0)
        return pages;
      for (size_t i = 0; i < (len + page - 1) / page; i++)
        pages += vec[i] & 1;
    }
  return pages;
}

uint64_t
mg_own_memory_resident (void)
{
  long p = sysconf (_SC_PAGESIZE);
  size_t page = p > 0 ? (size_t) p : 4096;
  unsigned n = __atomic_load_n (&n_regions, __ATOMIC_ACQUIRE);
  uint64_t pages = 0;
  for (unsigned i = 0; i < n; i++)
    pages += resident_pages (regions[i].start, regions[i].size, page);
  return pages * page;
}
