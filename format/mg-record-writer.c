/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The record writer: creation (full size, blocks reserved as slots are
 * reached), commit, merge. */
#include "format/mg-record-writer.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "format/mg-bounded-mean.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels say EINVAL */
#endif

static void
fill_header (MgRecordHeader *h, uint32_t n_plugins, uint32_t n_metrics, uint32_t capacity,
             int pid, const char *host, const char *run_id, int64_t start_mono_ns)
{
  mg_record_header_init (h, n_plugins, n_metrics, capacity);
  h->pid = pid;
  h->start_mono_ns = start_mono_ns;
  mg_record_copy_str (h->host, sizeof h->host, host);
  /* Also in a record that could not be allocated, which the front end
   * would otherwise not count as the run's and never show its reason. */
  mg_record_copy_str (h->run_id, sizeof h->run_id, run_id);
  /* The merge aligns records on it: a record without it would start the
   * run at the epoch. */
  struct timespec rt;
  clock_gettime (CLOCK_REALTIME, &rt);
  h->start_real_ns = (int64_t) rt.tv_sec * 1000000000 + rt.tv_nsec;
}

/* The record of a process that could not allocate its own: a valid record
 * with no tables and no slots, just the reason, if the disk still takes a
 * header. */
static void
write_reason (int fd, const struct rlimit *fsize, int e, const char *reason, int pid,
              const char *host, const char *run_id, int64_t start_mono_ns)
{
  MgRecordHeader h;
  fill_header (&h, 0, 0, 0, pid, host, run_id, start_mono_ns);
  /* Named and placed in the process tree as a record would be. */
  h.ppid = (int32_t) getppid ();
  ssize_t n = readlink ("/proc/self/exe", h.program, sizeof h.program - 1);
  h.program[n > 0 ? n : 0] = '\0';
  h.file_size = sizeof h;
  h.flags |= MG_RECORD_FLAG_STOPPED;
  h.record_error_code = e;
  mg_record_copy_str (h.record_error, sizeof h.record_error, reason);
  /* A failed fallocate may keep what it got (tmpfs does): give it back,
   * or the header would not fit on a nearly full disk. */
  if (ftruncate (fd, 0) != 0)
    { /* the header may still fit */ }
  if ((fsize->rlim_cur == RLIM_INFINITY || sizeof h <= fsize->rlim_cur)
      && pwrite (fd, &h, sizeof h, 0) < 0)
    { /* nothing more can be done */ }
}

/* The bytes up to the end of the first @slots slots (at most all). */
static uint64_t
slots_end (const MgRecordHeader *h, uint64_t slots)
{
  if (slots > h->capacity)
    slots = h->capacity;
  return h->samples_offset + slots * h->sample_stride;
}

/* The file at its full size, the header, the tables and the first
 * MG_RECORD_HEAD_SLOTS slots allocated, the rest a hole that
 * mg_record_touch_next reserves as it is reached (a short process's record
 * takes a few pages, not its full size): 0 or an errno, *needed the bytes
 * that could not be had. */
static int
size_file (int fd, const MgRecordHeader *h, const struct rlimit *fsize, uint64_t head_slots,
           uint64_t *needed)
{
  /* Growing past RLIMIT_FSIZE would raise SIGXFSZ in the program: check. */
  *needed = h->file_size;
  if (fsize->rlim_cur != RLIM_INFINITY && h->file_size > fsize->rlim_cur)
    return EFBIG;
  *needed = slots_end (h, head_slots);
  int e = posix_fallocate (fd, 0, (off_t) *needed);
  if (e != 0)
    return e;
  *needed = h->file_size;
  return ftruncate (fd, (off_t) h->file_size) == 0 ? 0 : errno;
}

int
mg_record_create (MgRecordWriter *w, const char *dir, const char *host, const char *run_id,
                  int pid, int64_t start_mono_ns, uint32_t n_plugins, uint32_t n_metrics,
                  uint32_t capacity, char *err, size_t err_len)
{
  return mg_record_create_with_stacks (w, dir, host, run_id, pid, start_mono_ns, n_plugins,
                                       n_metrics, capacity, 0, err, err_len);
}

/* Appends text to buf[*n..size), NUL-terminated; false when it does not fit. */
static bool
path_append (char *buf, size_t size, size_t *n, const char *text)
{
  size_t len = strlen (text);
  if (*n + len >= size)
    return false;
  memcpy (buf + *n, text, len + 1);
  *n += len;
  return true;
}

static bool
path_append_number (char *buf, size_t size, size_t *n, long long value)
{
  char digits[24];
  char *p = digits + sizeof digits;
  unsigned long long v = value < 0 ? 0ull - (unsigned long long) value : (unsigned long long) value;
  *--p = '\0';
  do
    *--p = (char) ('0' + v % 10);
  while ((v /= 10) != 0);
  if (value < 0)
    *--p = '-';
  return path_append (buf, size, n, p);
}

/* DIR/HOST.PID.START.mgrec, without snprintf: on the path of every
 * process's start, where printf's code and tables were three page faults
 * of their own in a program that never prints. */
static bool
record_path (char *buf, size_t size, const char *dir, const char *host, int pid,
             int64_t start_mono_ns)
{
  size_t n = 0;
  buf[0] = '\0';
  return path_append (buf, size, &n, dir) && path_append (buf, size, &n, "/")
         && path_append (buf, size, &n, host) && path_append (buf, size, &n, ".")
         && path_append_number (buf, size, &n, pid) && path_append (buf, size, &n, ".")
         && path_append_number (buf, size, &n, (long long) start_mono_ns)
         && path_append (buf, size, &n, MG_RECORD_SUFFIX);
}

/* The header and path of a new record, in w (cleared) and h. */
static int
lay_out (MgRecordWriter *w, MgRecordHeader *h, const char *dir, const char *host,
         const char *run_id, int pid, int64_t start_mono_ns, uint32_t n_plugins,
         uint32_t n_metrics, uint32_t capacity, uint32_t max_stacks, char *err, size_t err_len)
{
  memset (w, 0, sizeof *w);
  if (!record_path (w->path, sizeof w->path, dir, host, pid, start_mono_ns))
    {
      snprintf (err, err_len, "record path in '%s' is too long", dir);
      return -ENAMETOOLONG;
    }
  fill_header (h, n_plugins, n_metrics, capacity, pid, host, run_id, start_mono_ns);
  if (max_stacks > 0)
    mg_record_header_add_stacks (h, max_stacks);
  w->max_stacks = max_stacks;
  long page = sysconf (_SC_PAGESIZE);
  w->page_size = page > 0 ? (size_t) page : 4096;
  return 0;
}

/* w's pointers into a mapping of a record laid out as h. */
static void
point_into (MgRecordWriter *w, void *map, const MgRecordHeader *h)
{
  w->map = map;
  w->size = h->file_size;
  w->header = map;
  w->plugins = (MgRecordPlugin *) ((char *) map + h->plugins_offset);
  w->metrics = (MgRecordMetric *) ((char *) map + h->metrics_offset);
  w->touched_slots = 0;
  /* The call-stack section stays a hole, not laid out, until
   * mg_record_stacks_reserve: a process that ends (or sleeps) before its
   * threads have used any CPU pays nothing for it. */
  w->stacks = NULL;
}

/* Creates, sizes and maps the file of a record laid out in h, with
 * head_slots slots' blocks; 0 or -errno with err set. */
static int
create_file (MgRecordWriter *w, const MgRecordHeader *hp, uint64_t head_slots, char *err,
             size_t err_len)
{
  MgRecordHeader h = *hp;
  int pid = h.pid;
  int64_t start_mono_ns = h.start_mono_ns;
  char host[sizeof h.host], run_id[sizeof h.run_id];
  memcpy (host, h.host, sizeof host);
  memcpy (run_id, h.run_id, sizeof run_id);
  host[sizeof host - 1] = run_id[sizeof run_id - 1] = '\0';

  int fd = open (w->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int e = errno;
      snprintf (err, err_len, "cannot create record %s: %s", w->path, strerror (e));
      return -e;
    }
  struct rlimit fsize = { RLIM_INFINITY, RLIM_INFINITY };
  getrlimit (RLIMIT_FSIZE, &fsize);
  uint64_t needed;
  int e = size_file (fd, &h, &fsize, head_slots, &needed);
  void *map = MAP_FAILED;
  w->reserved = slots_end (&h, head_slots);
  if (e == 0)
    {
      map = mmap (NULL, h.file_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (map == MAP_FAILED)
        {
          e = errno;
          snprintf (err, err_len, "cannot map record %s: %s", w->path, strerror (e));
          close (fd);
          return -e;
        }
      /* A fault on a page not yet cached would read ahead the pages
       * around it, zero-filling them for slots that a short run never
       * writes, and the front end's unlink evicts them again: a fault (and
       * a populating one) brings its own page only. */
      madvise (map, h.file_size, MADV_RANDOM);
      /* Reserving slots as they come needs MADV_POPULATE_WRITE (Linux
       * 5.14): without it, the whole file now, as before. The header's
       * page is touched below anyway. */
      if (madvise (map, w->page_size, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
        {
          needed = h.file_size;
          e = posix_fallocate (fd, 0, (off_t) h.file_size);
          w->reserved = h.file_size;
        }
      if (e != 0)
        munmap (map, h.file_size);
    }
  if (e != 0)
    {
      snprintf (err, err_len, "cannot allocate record %s (%llu bytes): %s", w->path,
                (unsigned long long) needed, strerror (e));
      write_reason (fd, &fsize, e, err, pid, host, run_id, start_mono_ns);
      close (fd);
      return -e;
    }
  /* The mapping keeps the file: no descriptor is kept in the program's
   * way. */
  close (fd);
  point_into (w, map, &h);
  /* The file is zero-filled: copy the header last but the magic, so a reader
   * never sees a magic with a half-written header. */
  memcpy ((char *) map + MG_RECORD_MAGIC_LEN, (char *) &h + MG_RECORD_MAGIC_LEN,
          sizeof h - MG_RECORD_MAGIC_LEN);
  /* Every page of the header and tables in now, so that the record's share
   * of the RSS is known exactly (mg_record_resident_bytes). */
  for (uint64_t at = 0; at < h.samples_offset; at += w->page_size)
    ((volatile char *) map)[at] = ((volatile char *) map)[at];
  __atomic_thread_fence (__ATOMIC_RELEASE);
  memcpy (map, h.magic, MG_RECORD_MAGIC_LEN);
  return 0;
}

int
mg_record_create_with_stacks (MgRecordWriter *w, const char *dir, const char *host,
                              const char *run_id, int pid, int64_t start_mono_ns,
                              uint32_t n_plugins, uint32_t n_metrics, uint32_t capacity,
                              uint32_t max_stacks, char *err, size_t err_len)
{
  MgRecordHeader h;
  int e = lay_out (w, &h, dir, host, run_id, pid, start_mono_ns, n_plugins, n_metrics, capacity,
                   max_stacks, err, err_len);
  return e != 0 ? e : create_file (w, &h, MG_RECORD_HEAD_SLOTS, err, err_len);
}

int
mg_record_create_in_memory (MgRecordWriter *w, const char *dir, const char *host,
                            const char *run_id, int pid, int64_t start_mono_ns,
                            uint32_t n_plugins, uint32_t n_metrics, uint32_t capacity,
                            uint32_t max_stacks, char *err, size_t err_len)
{
  MgRecordHeader h;
  int e = lay_out (w, &h, dir, host, run_id, pid, start_mono_ns, n_plugins, n_metrics, capacity,
                   max_stacks, err, err_len);
  if (e != 0)
    return e;
  /* A file it could never be (over RLIMIT_FSIZE) is tried now, so that
   * the process runs unprofiled from its start, its header saying why. */
  struct rlimit fsize = { RLIM_INFINITY, RLIM_INFINITY };
  getrlimit (RLIMIT_FSIZE, &fsize);
  if (fsize.rlim_cur != RLIM_INFINITY && h.file_size > fsize.rlim_cur)
    return create_file (w, &h, MG_RECORD_HEAD_SLOTS, err, err_len);
  /* Zero pages until written: only the header's and the tables' are. */
  void *map = mmap (NULL, h.file_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                    0);
  if (map == MAP_FAILED)
    {
      e = errno;
      snprintf (err, err_len, "cannot lay out record %s in memory (%llu bytes): %s%s", w->path,
                (unsigned long long) h.file_size, strerror (e),
                e == ENOMEM ? " (the program's address-space limit, ulimit -v, may leave no "
                              "room for it)"
                            : "");
      /* Its reason in a record of its own, as for a record the disk
       * could not take: the process is counted, and the summary says why
       * it has no samples (it used to vanish from the run). */
      int fd = open (w->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd >= 0)
        {
          write_reason (fd, &fsize, e, err, pid, host, run_id, start_mono_ns);
          close (fd);
        }
      return -e;
    }
  point_into (w, map, &h);
  memcpy (map, &h, sizeof h);
  /* No block to run out of: nothing to reserve. */
  w->reserved = h.file_size;
  w->in_memory = true;
  return 0;
}

/* Writes len bytes of buf at offset: 0 or an errno. */
static int
pwrite_all (int fd, const char *buf, uint64_t len, uint64_t offset)
{
  while (len > 0)
    {
      ssize_t n = pwrite (fd, buf, len, (off_t) offset);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return n < 0 ? errno : ENOSPC;
      buf += n;
      len -= (uint64_t) n;
      offset += (uint64_t) n;
    }
  return 0;
}

/* Writes bytes [MG_RECORD_MAGIC_LEN, end) of a record: 0 or an errno. */
typedef int (*BodyWriter) (int fd, const void *src, uint64_t end);

/* The file of a record whose header is h (as laid out: its magic, pid,
 * host, run id) and whose bytes up to end the body writer gives: at its
 * full size (a hole past end), the magic last, so that a reader never sees
 * it before the rest. On failure the header holds the reason. */
static int
write_file (const char *path, const MgRecordHeader *h, uint64_t end, BodyWriter body,
            const void *src, char *err, size_t err_len)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int e = errno;
      snprintf (err, err_len, "cannot create record %s: %s", path, strerror (e));
      return -e;
    }
  struct rlimit fsize = { RLIM_INFINITY, RLIM_INFINITY };
  getrlimit (RLIMIT_FSIZE, &fsize);
  int e = 0;
  /* Growing past RLIMIT_FSIZE would raise SIGXFSZ in the program. */
  if (fsize.rlim_cur != RLIM_INFINITY && h->file_size > fsize.rlim_cur)
    e = EFBIG;
  else if (ftruncate (fd, (off_t) h->file_size) != 0)
    e = errno;
  if (e == 0)
    e = body (fd, src, end);
  if (e == 0)
    e = pwrite_all (fd, h->magic, MG_RECORD_MAGIC_LEN, 0);
  if (e != 0)
    {
      char host[sizeof h->host], run_id[sizeof h->run_id];
      memcpy (host, h->host, sizeof host);
      memcpy (run_id, h->run_id, sizeof run_id);
      host[sizeof host - 1] = run_id[sizeof run_id - 1] = '\0';
      snprintf (err, err_len, "cannot allocate record %s (%llu bytes): %s", path,
                (unsigned long long) end, strerror (e));
      write_reason (fd, &fsize, e, err, h->pid, host, run_id, h->start_mono_ns);
      close (fd);
      return -e;
    }
  close (fd);
  return 0;
}

static int
write_mapped (int fd, const void *map, uint64_t end)
{
  return pwrite_all (fd, (const char *) map + MG_RECORD_MAGIC_LEN, end - MG_RECORD_MAGIC_LEN,
                     MG_RECORD_MAGIC_LEN);
}

int
mg_record_write_out (const MgRecordWriter *w, char *err, size_t err_len)
{
  if (!w->in_memory)
    return 0;
  const MgRecordHeader *h = w->header;
  uint64_t end = h->samples_offset + (uint64_t) h->n_samples * h->sample_stride;
  return write_file (w->path, h, end, write_mapped, w->map, err, err_len);
}

typedef struct {
  const MgRecordHeader *h;
  const MgRecordComposer *c;
} Composed;

/* Copies the part of [at, at + len) of the record, held in src, that lies
 * in [from, to) into buf (which holds [from, to)). */
static void
copy_part (char *buf, uint64_t from, uint64_t to, const void *src, uint64_t at, uint64_t len)
{
  uint64_t lo = at > from ? at : from;
  uint64_t hi = at + len < to ? at + len : to;
  if (lo < hi)
    memcpy (buf + (lo - from), (const char *) src + (lo - at), hi - lo);
}

/* The first of n entries of size bytes from offset that ends after from. */
static uint64_t
first_entry (uint64_t offset, uint64_t size, uint64_t from)
{
  return from > offset ? (from - offset) / size : 0;
}

/* Bytes [from, to) of the composed record into buf: zeros but the header,
 * the entries the composer fills and the slot. */
static void
compose_range (const Composed *k, char *buf, uint64_t from, uint64_t to)
{
  const MgRecordHeader *h = k->h;
  const MgRecordComposer *c = k->c;
  memset (buf, 0, to - from);
  copy_part (buf, from, to, h, 0, sizeof *h);
  for (uint64_t i = first_entry (h->plugins_offset, sizeof (MgRecordPlugin), from);
       i < h->n_plugins && h->plugins_offset + i * sizeof (MgRecordPlugin) < to; i++)
    {
      MgRecordPlugin e;
      memset (&e, 0, sizeof e);
      c->plugin (c->data, (uint32_t) i, &e);
      copy_part (buf, from, to, &e, h->plugins_offset + i * sizeof e, sizeof e);
    }
  for (uint64_t i = first_entry (h->metrics_offset, sizeof (MgRecordMetric), from);
       i < h->n_metrics && h->metrics_offset + i * sizeof (MgRecordMetric) < to; i++)
    {
      MgRecordMetric e;
      memset (&e, 0, sizeof e);
      c->metric (c->data, (uint32_t) i, &e);
      copy_part (buf, from, to, &e, h->metrics_offset + i * sizeof e, sizeof e);
    }
  if (h->n_samples > 0)
    {
      MgRecordSample slot = { c->slot_start_ns, c->slot_end_ns, 1, 0 };
      copy_part (buf, from, to, &slot, h->samples_offset, sizeof slot);
    }
}

/* A page's worth at a time: the buffer stays within the stack the process
 * has used already (a bigger one was page faults of its own). */
enum { COMPOSE_CHUNK = 4096 };

static int
write_composed (int fd, const void *src, uint64_t end)
{
  char buf[COMPOSE_CHUNK];
  for (uint64_t at = MG_RECORD_MAGIC_LEN; at < end;)
    {
      uint64_t next = (at / COMPOSE_CHUNK + 1) * COMPOSE_CHUNK;
      if (next > end)
        next = end;
      compose_range (src, buf, at, next);
      int e = pwrite_all (fd, buf, next - at, at);
      if (e != 0)
        return e;
      at = next;
    }
  return 0;
}

int
mg_record_write_composed (const char *dir, const char *host, const char *run_id, int pid,
                          int64_t start_mono_ns, uint32_t n_plugins, uint32_t n_metrics,
                          uint32_t capacity, uint32_t max_stacks, const MgRecordComposer *c,
                          char *err, size_t err_len)
{
  MgRecordWriter w;
  MgRecordHeader h;
  int e = lay_out (&w, &h, dir, host, run_id, pid, start_mono_ns, n_plugins, n_metrics, capacity,
                   max_stacks, err, err_len);
  if (e != 0)
    return e;
  c->header (c->data, &h);
  h.n_samples = c->slot_end_ns > 0 && h.capacity > 0 ? 1 : 0;
  Composed k = { &h, c };
  uint64_t end = h.samples_offset + (uint64_t) h.n_samples * h.sample_stride;
  return write_file (w.path, &h, end, write_composed, &k, err, err_len);
}

int
mg_record_materialize (MgRecordWriter *w, uint32_t head_slots, char *err, size_t err_len)
{
  if (!w->in_memory)
    return 0;
  MgRecordWriter file = *w;
  const MgRecordHeader *h = w->header;
  uint64_t n = h->n_samples;
  int e = create_file (&file, h, head_slots > n ? head_slots : n + 1, err, err_len);
  if (e != 0)
    return e;
  /* Past the magic, which the new file has already: what was written in
   * memory (the header's fields, the tables, the committed slots). */
  uint64_t end = h->samples_offset + n * h->sample_stride;
  memcpy ((char *) file.map + MG_RECORD_MAGIC_LEN, (const char *) w->map + MG_RECORD_MAGIC_LEN,
          end - MG_RECORD_MAGIC_LEN);
  file.touched_slots = (uint32_t) n;
  file.in_memory = false;
  munmap (w->map, w->size);
  *w = file;
  return 0;
}

uint64_t
mg_record_resident_bytes (const MgRecordWriter *w)
{
  if (w->map == NULL || w->header == NULL)
    return 0;
  uint64_t end = w->header->samples_offset
                 + (uint64_t) w->touched_slots * w->header->sample_stride;
  if (w->populated > end)
    end = w->populated;
  uint64_t pages = (end + w->page_size - 1) / w->page_size;
  end = pages * w->page_size;
  uint64_t resident = end < w->size ? end : (uint64_t) w->size;
  if (w->stacks)
    {
      /* The stack section, populated whole when it was laid out (its
       * first page may be the slots' last). */
      uint64_t from = mg_record_sections_offset (w->header) / w->page_size * w->page_size;
      if (from < end)
        from = end;
      if (from < w->size)
        resident += (w->size - from + w->page_size - 1) / w->page_size * w->page_size;
    }
  return resident;
}

int
mg_record_stacks_reserve (MgRecordWriter *w, char *err, size_t err_len)
{
  MgRecordHeader *h = w->header;
  if (w->stacks)
    return 0;
  if (h == NULL || w->max_stacks == 0 || !(h->sections & MG_RECORD_SECTION_STACKS))
    return ENOENT;
  if (h->flags & MG_RECORD_FLAG_STACKS_NO_ROOM)
    return ENOSPC;
  uint64_t from = mg_record_sections_offset (h) / w->page_size * w->page_size;
  /* Without MADV_POPULATE_WRITE the whole file got its blocks at creation. */
  if (w->reserved < w->size
      && madvise ((char *) w->map + from, w->size - from, MADV_POPULATE_WRITE) != 0)
    {
      /* EFAULT: a write there would have raised SIGBUS, a block the disk
       * (or quota) could not give. */
      int e = errno == EFAULT ? ENOSPC : errno;
      snprintf (err, err_len, "cannot reserve the call-stack section of record %s "
                "(%llu bytes): %s", w->path, (unsigned long long) (w->size - from), strerror (e));
      __atomic_or_fetch (&h->flags, MG_RECORD_FLAG_STACKS_NO_ROOM, __ATOMIC_RELEASE);
      return e;
    }
  MgRecordStacks *s = mg_record_stacks_at (w->map, h);
  MgRecordStacks layout;
  mg_record_stacks_layout (&layout, w->max_stacks, h->capacity);
  /* max_stacks last: a reader that sees it 0 takes the section as not
   * laid out yet. */
  layout.max_stacks = 0;
  *s = layout;
  __atomic_store_n (&s->max_stacks, w->max_stacks, __ATOMIC_RELEASE);
  w->stacks = s;
  return 0;
}

void
mg_record_forget (MgRecordWriter *w)
{
  if (w->map)
    munmap (w->map, w->size);
  w->map = NULL;
  w->header = NULL;
  w->plugins = NULL;
  w->metrics = NULL;
  w->stacks = NULL;
}

MgRecordSample *
mg_record_slot (const MgRecordWriter *w, uint32_t i)
{
  return (MgRecordSample *) ((char *) w->map + w->header->samples_offset
                             + (uint64_t) i * w->header->sample_stride);
}

void
mg_record_commit (MgRecordWriter *w)
{
  uint32_t n = w->header->n_samples;
  __atomic_store_n (&w->header->n_samples, n + 1, __ATOMIC_RELEASE);
}

/* Recording stops, the reason in the header (the front end says it, as
 * for a record that could not be created). */
static void
stop (MgRecordWriter *w, int e, uint64_t needed)
{
  MgRecordHeader *h = w->header;
  char reason[sizeof w->path + 160];
  snprintf (reason, sizeof reason, "cannot grow record %s to %llu bytes (of its %llu): %s",
            w->path, (unsigned long long) needed, (unsigned long long) w->size, strerror (e));
  h->record_error_code = e;
  mg_record_copy_str (h->record_error, sizeof h->record_error, reason);
  __atomic_or_fetch (&h->flags, MG_RECORD_FLAG_STOPPED, __ATOMIC_RELEASE);
}

/* Reserves the file's blocks from w->reserved to twice as many slots (at
 * least up to @end), whole pages: a write there then never raises SIGBUS
 * for want of space. Doubling keeps the steps few (six from 64 slots to
 * 4096); the pages populated are in the RSS at once, which
 * mg_record_resident_bytes counts. */
static bool
reserve (MgRecordWriter *w, uint64_t end)
{
  const MgRecordHeader *h = w->header;
  uint64_t page = w->page_size;
  uint64_t from = w->reserved / page * page;
  uint64_t slots = (w->reserved - h->samples_offset) / h->sample_stride;
  uint64_t to = slots_end (h, 2 * slots);
  if (to < end)
    to = end;
  to = (to + page - 1) / page * page;
  if (to > w->size)
    to = w->size;
  if (madvise ((char *) w->map + from, to - from, MADV_POPULATE_WRITE) != 0)
    {
      /* EFAULT: a write there would have raised SIGBUS, which on a file
       * within its size is a block the disk (or quota) could not give. */
      stop (w, errno == EFAULT ? ENOSPC : errno, to);
      return false;
    }
  w->reserved = w->populated = to;
  return true;
}

bool
mg_record_touch_next (MgRecordWriter *w)
{
  const MgRecordHeader *h = w->header;
  uint32_t n = h->n_samples;
  if (h->flags & MG_RECORD_FLAG_STOPPED)
    return false;
  if (n >= h->capacity)
    return true;
  volatile char *slot = (volatile char *) mg_record_slot (w, n);
  uint64_t end = h->samples_offset + (uint64_t) (n + 1) * h->sample_stride;
  if (end > w->reserved && !reserve (w, end))
    return false;
  /* Slots past n_samples are all zero (a new file, or cleared by a
   * merge): writing a zero changes nothing but faults the page in. Every
   * 4 KiB reaches every page of any page size. */
  for (uint64_t at = 0; at < h->sample_stride; at += 4096)
    slot[at] = 0;
  slot[h->sample_stride - 1] = 0;
  if (n + 1 > w->touched_slots)
    w->touched_slots = n + 1;
  return true;
}

void
mg_record_begin_rewrite (MgRecordWriter *w)
{
  __atomic_store_n (&w->header->seq, w->header->seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
}

void
mg_record_end_rewrite (MgRecordWriter *w)
{
  __atomic_store_n (&w->header->seq, w->header->seq + 1, __ATOMIC_RELEASE);
}

static MgRecordValue
merge_values (MgRecordValue a, const MgRecordValue *b)
{
  if (!b || b->count == 0)
    return a;
  if (a.count == 0)
    return *b;
  MgRecordValue out = { 0 };
  out.count = a.count + b->count;
  out.min = a.min < b->min ? a.min : b->min;
  out.max = a.max > b->max ? a.max : b->max;
  out.mean = mg_bounded_mean (a.mean * a.count + b->mean * b->count, out.count, out.min,
                              out.max);
  return out;
}

void
mg_record_merge (MgRecordWriter *w)
{
  MgRecordHeader *h = w->header;
  uint32_t n = h->n_samples;
  uint32_t n_new = (n + 1) / 2;

  mg_record_begin_rewrite (w);
  for (uint32_t i = 0; i < n_new; i++)
    {
      /* Slot i is written from slots 2i and 2i+1; i <= 2i, so nothing not
       * yet read is overwritten, and everything is read before written. */
      MgRecordSample *a = mg_record_slot (w, 2 * i);
      MgRecordSample *b = 2 * i + 1 < n ? mg_record_slot (w, 2 * i + 1) : NULL;
      MgRecordSample *out = mg_record_slot (w, i);
      MgRecordSample s = *a;
      if (b)
        {
          s.t_end_ns = b->t_end_ns;
          s.n_raw = a->n_raw + b->n_raw;
        }
      MgRecordValue *av = mg_record_slot_values (a);
      MgRecordValue *bv = b ? mg_record_slot_values (b) : NULL;
      MgRecordValue *ov = mg_record_slot_values (out);
      for (uint32_t m = 0; m < h->n_metrics; m++)
        ov[m] = merge_values (av[m], bv ? &bv[m] : NULL);
      *out = s;
    }
  /* Clear the freed slots so a reader never sees stale data past n. */
  for (uint32_t i = n_new; i < n; i++)
    memset (mg_record_slot (w, i), 0, h->sample_stride);
  if (w->stacks)
    mg_record_stacks_merge (w->stacks, n);
  __atomic_store_n (&h->n_samples, n_new, __ATOMIC_RELEASE);
  h->interval_ns *= 2;
  h->n_merges++;
  mg_record_end_rewrite (w);
}
