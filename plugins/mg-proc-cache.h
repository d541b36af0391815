/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A /proc or /sys file read at most once per sampling round and shared by
 * every metric of a plugin that needs it: the first getter of a round reads
 * the file (kept open, see MgProcFile), the others of the same round get the
 * same text. Header-only and async-signal-safe, like mg-metric-util.h.
 *
 *   MG_PROC_CACHE (meminfo, "/proc/meminfo", 4096);
 *   bool fresh;
 *   const char *text = mg_proc_cache_text (&meminfo, now, &fresh);
 *
 * fresh tells the caller that this call read the file, so that values parsed
 * from it can be parsed once per round too. */
#ifndef MG_PROC_CACHE_H
#define MG_PROC_CACHE_H

#include "mg-metric-util.h"

typedef struct {
  MgProcFile file;
  char *text;       /* size bytes of static storage */
  size_t size;
  int64_t round_ns; /* the round text belongs to; 0: none */
  struct timespec read_time; /* when it was read (mg_report_read_time) */
} MgProcCache;

/* Defines a static MgProcCache name for path, with a buffer of size bytes. */
#define MG_PROC_CACHE(name, path, size_bytes)                                  \
  static char name##_text[size_bytes];                                         \
  static MgProcCache name = { .file = MG_PROC_FILE (path),                     \
                              .text = name##_text,                             \
                              .size = size_bytes }

/* The file's text for the sampling round of now; NULL with errno set when it
 * cannot be read (the next call tries again). */
static inline const char *
mg_proc_cache_text (MgProcCache *c, const struct timespec *now, bool *fresh)
{
  if (fresh)
    *fresh = false;
  if (mg_same_round (now, &c->round_ns))
    return c->text;
  if (mg_proc_file_read (&c->file, c->text, c->size) < 0)
    {
      c->round_ns = 0;
      return NULL;
    }
  c->read_time = allinea_get_current_time ();
  if (fresh)
    *fresh = true;
  return c->text;
}

/* True when the text already belongs to the round of now (nothing to do). */
static inline bool
mg_proc_cache_is_current (const MgProcCache *c, const struct timespec *now)
{
  int64_t d = mg_timespec_ns (now) - c->round_ns;
  return c->round_ns != 0 && d < MG_ROUND_SLACK_NS && d > -MG_ROUND_SLACK_NS;
}

/* Forgets the text, so that the next call reads the file. */
static inline void
mg_proc_cache_invalidate (MgProcCache *c)
{
  c->round_ns = 0;
}

/* The text read is not the file's: the program closed the kept descriptor
 * (close_range, mid-run) and another file kept open took its number (a
 * plugin's reopened at the lowest free number of the sampler's band).
 * Checked (fstat) and opened again at the next read, rather than read
 * wrong until the periodic check (MG_PROC_FILE_CHECK_EVERY reads). */
static inline void
mg_proc_cache_recheck (MgProcCache *c)
{
  c->file.unchecked_reads = MG_PROC_FILE_CHECK_EVERY;
  c->round_ns = 0;
}

static inline void
mg_proc_cache_close (MgProcCache *c)
{
  mg_proc_file_close (&c->file);
  c->round_ns = 0;
}

#endif /* MG_PROC_CACHE_H */
