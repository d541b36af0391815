/* SPDX-License-Identifier: GPL-3.0-or-later */
/* allinea_safe_open/close/read/write/read_all/read_all_with_alloc/read_line
 * and the accounting behind metrograph_get_safe_io_counts().
 *
 * Every function is a direct system call (syscall(2), so no wrapper the
 * program or a sanitizer interposes can count or intercept it), retried on
 * EINTR, and every byte it moves is added to atomic counters.
 *
 * read_line cannot push back what it read past the newline: /proc files
 * regenerate their content on seek, pipes cannot seek. Reading one byte per
 * system call would cost thousands of calls per /proc/stat sample, so a few
 * small per-fd buffers (MG_LINE_SLOTS) keep the bytes read ahead. A slot
 * remembers the file's device, inode and kernel offset after its last read
 * and is discarded when any of them differ (the fd was closed behind our back
 * and reused, or read or seeked by something else). allinea_safe_read serves
 * buffered bytes first so mixing the calls stays correct; allinea_safe_close
 * drops the slot. When every slot is in use, read_line falls back to one byte
 * per read(2), which is always correct. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* O_TMPFILE */
#endif
#include "mg-api-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "allinea_safe_malloc.h"
#include "allinea_safe_syscalls.h"
#include "metrograph_plugin_ext.h"

#define MG_LINE_SLOTS 16
#define MG_LINE_BUFFER 1024

uint64_t mg_bytes_read;
uint64_t mg_bytes_written;
uint64_t mg_read_calls;
uint64_t mg_write_calls;

typedef struct {
  int fd;             /* -1: free */
  int busy;           /* claimed by a call in progress */
  dev_t dev;
  ino_t ino;
  off_t offset;       /* kernel offset after our last read; -1 unseekable */
  size_t start, end;  /* buffered bytes: data[start, end) */
  char data[MG_LINE_BUFFER];
} MgLineSlot;

static MgLineSlot mg_slots[MG_LINE_SLOTS] = {
#define MG_FREE_SLOT { .fd = -1 }
  MG_FREE_SLOT, MG_FREE_SLOT, MG_FREE_SLOT, MG_FREE_SLOT,
  MG_FREE_SLOT, MG_FREE_SLOT, MG_FREE_SLOT, MG_FREE_SLOT,
  MG_FREE_SLOT, MG_FREE_SLOT, MG_FREE_SLOT, MG_FREE_SLOT,
  MG_FREE_SLOT, MG_FREE_SLOT, MG_FREE_SLOT, MG_FREE_SLOT,
};
static MgLock mg_slots_lock = MG_LOCK_INIT;

MG_API int
metrograph_get_safe_io_counts (struct metrograph_safe_io_counts *out)
{
  out->bytes_read = __atomic_load_n (&mg_bytes_read, __ATOMIC_RELAXED);
  out->bytes_written = __atomic_load_n (&mg_bytes_written, __ATOMIC_RELAXED);
  out->read_calls = __atomic_load_n (&mg_read_calls, __ATOMIC_RELAXED);
  out->write_calls = __atomic_load_n (&mg_write_calls, __ATOMIC_RELAXED);
  return 0;
}

/* One read(2), retried on EINTR, counted. */
static ssize_t
mg_raw_read (int fd, void *buf, size_t count)
{
  ssize_t n;
  do
    {
      n = syscall (SYS_read, fd, buf, count);
      __atomic_fetch_add (&mg_read_calls, 1, __ATOMIC_RELAXED);
    }
  while (n < 0 && errno == EINTR);
  if (n > 0)
    __atomic_fetch_add (&mg_bytes_read, (uint64_t) n, __ATOMIC_RELAXED);
  return n;
}

static int
mg_slot_still_valid (const MgLineSlot *slot, int fd)
{
  struct stat st;
  if (syscall (SYS_fstat, fd, &st) != 0 || st.st_dev != slot->dev || st.st_ino != slot->ino)
    return 0;
  off_t offset = (off_t) syscall (SYS_lseek, fd, (off_t) 0, SEEK_CUR);
  return offset == slot->offset;
}

/* Claims the slot of fd, if any; with create, a new one when none exists.
 * Returns NULL when no slot could be claimed. */
static MgLineSlot *
mg_slot_claim (int fd, int create)
{
  MgLineSlot *found = NULL;
  MgLineSlot *spare = NULL;
  if (!mg_lock_acquire (&mg_slots_lock))
    return NULL;   /* a handler interrupted this thread in here: go unbuffered */
  for (int i = 0; i < MG_LINE_SLOTS; i++)
    {
      MgLineSlot *slot = &mg_slots[i];
      if (slot->fd == fd)
        found = slot;
      else if (!slot->busy && spare == NULL && (slot->fd < 0 || slot->start == slot->end))
        spare = slot;
    }
  if (found != NULL && found->busy)
    found = NULL;   /* two threads on one fd: let this one go unbuffered */
  else if (found == NULL && create && spare != NULL)
    {
      found = spare;
      found->fd = fd;
      found->start = found->end = 0;
      found->offset = -2;   /* forces a fresh fstat below */
    }
  if (found != NULL)
    found->busy = 1;
  mg_lock_release (&mg_slots_lock);
  if (found == NULL)
    return NULL;
  if (found->start != found->end && !mg_slot_still_valid (found, fd))
    found->start = found->end = 0;   /* stale: the fd now names something else */
  if (found->start == found->end)
    {
      struct stat st;
      if (syscall (SYS_fstat, fd, &st) == 0)
        {
          found->dev = st.st_dev;
          found->ino = st.st_ino;
        }
    }
  return found;
}

static void
mg_slot_release (MgLineSlot *slot)
{
  __atomic_store_n (&slot->busy, 0, __ATOMIC_RELEASE);
}

/* Refills an empty slot with one read(2); records the kernel offset. */
static ssize_t
mg_slot_fill (MgLineSlot *slot, int fd)
{
  ssize_t n = mg_raw_read (fd, slot->data, sizeof slot->data);
  int saved_errno = errno;   /* lseek fails on pipes: keep read's errno */
  slot->start = 0;
  slot->end = n > 0 ? (size_t) n : 0;
  slot->offset = (off_t) syscall (SYS_lseek, fd, (off_t) 0, SEEK_CUR);
  errno = saved_errno;
  return n;
}

static void
mg_slot_forget (int fd)
{
  if (!mg_lock_acquire (&mg_slots_lock))
    {
      /* A handler interrupted this thread in the lock: mark the slot free
       * without it (a racing claim only re-validates the fd). */
      for (int i = 0; i < MG_LINE_SLOTS; i++)
        if (__atomic_load_n (&mg_slots[i].fd, __ATOMIC_RELAXED) == fd && !mg_slots[i].busy)
          __atomic_store_n (&mg_slots[i].end, mg_slots[i].start, __ATOMIC_RELAXED);
      return;
    }
  for (int i = 0; i < MG_LINE_SLOTS; i++)
    if (mg_slots[i].fd == fd && !mg_slots[i].busy)
      {
        mg_slots[i].fd = -1;
        mg_slots[i].start = mg_slots[i].end = 0;
      }
  mg_lock_release (&mg_slots_lock);
}

MG_API int
allinea_safe_open (const char *file, int oflags, ...)
{
  mode_t mode = 0;
  if ((oflags & O_CREAT) || (oflags & O_TMPFILE) == O_TMPFILE)
    {
      va_list ap;
      va_start (ap, oflags);
      mode = (mode_t) va_arg (ap, int);
      va_end (ap);
    }
  long fd;
  do
    fd = syscall (SYS_openat, AT_FDCWD, file, oflags, mode);
  while (fd < 0 && errno == EINTR);
  if (fd >= 0)
    mg_slot_forget ((int) fd);   /* a slot left by an fd closed elsewhere */
  return (int) fd;
}

MG_API int
allinea_safe_close (int fd)
{
  mg_slot_forget (fd);
  /* Not retried on EINTR: Linux releases the descriptor anyway. */
  return (int) syscall (SYS_close, fd);
}

/* Unlocked peek: does any slot name fd? Saves the lock on plain reads. */
static int
mg_slot_may_exist (int fd)
{
  for (int i = 0; i < MG_LINE_SLOTS; i++)
    if (__atomic_load_n (&mg_slots[i].fd, __ATOMIC_RELAXED) == fd)
      return 1;
  return 0;
}

MG_API ssize_t
allinea_safe_read (int fd, void *buf, size_t count)
{
  MgLineSlot *slot = mg_slot_may_exist (fd) ? mg_slot_claim (fd, 0) : NULL;
  if (slot != NULL)
    {
      size_t buffered = slot->end - slot->start;
      if (buffered > 0)
        {
          size_t take = buffered < count ? buffered : count;
          memcpy (buf, slot->data + slot->start, take);
          slot->start += take;
          mg_slot_release (slot);
          return (ssize_t) take;
        }
      mg_slot_release (slot);
    }
  return mg_raw_read (fd, buf, count);
}

/* One pread(2) (the kernel counts it as a read), retried on EINTR, counted;
 * read_line's buffer for fd, if any, is neither used nor disturbed. */
MG_API ssize_t
metrograph_safe_pread (int fd, void *buf, size_t count, off_t offset)
{
  ssize_t n;
  do
    {
      n = syscall (SYS_pread64, fd, buf, count, offset);
      __atomic_fetch_add (&mg_read_calls, 1, __ATOMIC_RELAXED);
    }
  while (n < 0 && errno == EINTR);
  if (n > 0)
    __atomic_fetch_add (&mg_bytes_read, (uint64_t) n, __ATOMIC_RELAXED);
  return n;
}

MG_API ssize_t
allinea_safe_write (int fd, const void *buf, size_t count)
{
  size_t done = 0;
  while (done < count)
    {
      ssize_t n = syscall (SYS_write, fd, (const char *) buf + done, count - done);
      __atomic_fetch_add (&mg_write_calls, 1, __ATOMIC_RELAXED);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          if (done == 0)
            return -1;
          break;
        }
      __atomic_fetch_add (&mg_bytes_written, (uint64_t) n, __ATOMIC_RELAXED);
      done += (size_t) n;
      if (n == 0)
        break;
    }
  return (ssize_t) done;
}

MG_API ssize_t
allinea_safe_read_all (int fd, void *buf, size_t count)
{
  size_t done = 0;
  while (done < count)
    {
      ssize_t n = allinea_safe_read (fd, (char *) buf + done, count - done);
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      done += (size_t) n;
    }
  return (ssize_t) done;
}

MG_API ssize_t
allinea_safe_read_all_with_alloc (int fd, void **buf, size_t *count)
{
  size_t capacity = 4096;
  struct stat st;
  /* Regular files say how big they are (/proc files say 0). */
  if (syscall (SYS_fstat, fd, &st) == 0 && S_ISREG (st.st_mode) && st.st_size > 0)
    capacity = (size_t) st.st_size + 1;
  char *data = allinea_safe_malloc (capacity);
  size_t length = 0;
  for (;;)
    {
      if (length + 1 == capacity)
        {
          capacity *= 2;
          data = allinea_safe_realloc (data, capacity);
        }
      ssize_t n = allinea_safe_read (fd, data + length, capacity - 1 - length);
      if (n < 0)
        {
          int saved = errno;
          allinea_safe_free (data);
          *buf = NULL;
          if (count)
            *count = 0;
          errno = saved;
          return -1;
        }
      if (n == 0)
        break;
      length += (size_t) n;
    }
  data[length] = '\0';
  *buf = data;
  if (count)
    *count = capacity;
  return (ssize_t) length;
}

/* The unbuffered path: one byte per read(2). */
static ssize_t
mg_read_line_bytewise (int fd, char *out, size_t count)
{
  size_t placed = 0;
  char c;
  for (;;)
    {
      ssize_t n = mg_raw_read (fd, &c, 1);
      if (n < 0)
        return -1;
      if (n == 0 || c == '\n')
        break;
      if (placed + 1 < count)
        out[placed++] = c;
    }
  out[placed] = '\0';
  return (ssize_t) placed;
}

MG_API ssize_t
allinea_safe_read_line (int fd, void *buf, size_t count)
{
  char *out = buf;
  if (count == 0)
    {
      errno = EINVAL;
      return -1;
    }
  if (fd < 0)
    {
      errno = EBADF;
      return -1;
    }
  MgLineSlot *slot = mg_slot_claim (fd, 1);
  if (slot == NULL)
    return mg_read_line_bytewise (fd, out, count);
  size_t placed = 0;
  ssize_t result;
  for (;;)
    {
      if (slot->start == slot->end)
        {
          ssize_t n = mg_slot_fill (slot, fd);
          if (n < 0)
            {
              result = -1;
              break;
            }
          if (n == 0)
            {
              result = (ssize_t) placed;
              break;
            }
        }
      char *line = slot->data + slot->start;
      size_t available = slot->end - slot->start;
      char *newline = memchr (line, '\n', available);
      size_t take = newline ? (size_t) (newline - line) : available;
      size_t room = count - 1 - placed;
      memcpy (out + placed, line, take < room ? take : room);
      placed += take < room ? take : room;   /* the rest of a long line is dropped */
      slot->start += take;
      if (newline)
        {
          slot->start++;   /* consume the '\n' */
          result = (ssize_t) placed;
          break;
        }
    }
  out[placed] = '\0';
  mg_slot_release (slot);
  return result;
}

MG_API struct timespec
allinea_get_current_time (void)
{
  struct timespec now = { 0, 0 };
  clock_gettime (CLOCK_MONOTONIC, &now);
  return now;
}
