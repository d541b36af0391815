/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile file read in place. The processes' own series are almost all of
 * a large profile (200 MB of 206 for 64 processes × 32 metrics × 4096
 * samples) and only the process drop-down shows them, while memory touched
 * for the first time is slow (on virtual machines, ~4 ms per MB: most of
 * the time to open a profile went into the pages a copy of the file needs).
 * So opening makes one pass over the file in small pieces: it checks the
 * payload's CRC, as reading the whole file did, copies everything but the
 * processes' times and values into a buffer of the payload's size, whose
 * pages for those stay untouched, and keeps the CRC of each process's block
 * (format 3 blocks carry their own CRC, and the header's is of the rest:
 * those are not read at all, so opening costs the same for 64 processes as
 * for 4096).
 * A process's times and values are read into their place when first asked
 * for and checked against that CRC: a file changed on disk since it was
 * opened is then an error naming it, never wrong graphs, and never a crash
 * (a mapping of the file would fault if it were truncated). A file replaced
 * by renaming (as saving does) keeps its old contents for the descriptor
 * this keeps open. */
#include "mg-config.h"

#include "mg-profile-source.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "mg-crc32.h"
#include "mg-process-block.h"
#include "mg-pread.h"

#define HEADER_LEN 24
#define CHUNK (1024 * 1024)
#define HUGE_PAGE (2 * 1024 * 1024)

enum { BLOCK_PENDING, BLOCK_READ, BLOCK_FAILED };

/* One process's element of the series array, in payload offsets. */
typedef struct {
  gsize start, end;           /* the whole element */
  gsize hole_start, hole_end; /* its times and values, read when asked for */
  guint32 crc;                /* of [start, end) */
  int state;
} Block;

struct _MgProfileSource {
  int fd;
  char *display;
  guchar *payload;
  Block *blocks;
  gsize n_blocks;
  gboolean holes_checked;     /* the holes are blocks that carry their CRC */
  MgProcessSeries *series;    /* the profile's, to empty on failure */
  guint n_metrics;
  GMutex lock;
};

/* ---- the payload's framing ---------------------------------------------- */

/* The size of a GVariant container's framing offsets (GVariant's rule). */
static gsize
offset_size (gsize container)
{
  if (container > G_MAXUINT32)
    return 8;
  if (container > G_MAXUINT16)
    return 4;
  if (container > G_MAXUINT8)
    return 2;
  return container > 0 ? 1 : 0;
}

static guint64
read_offset (const guchar *p, gsize size)
{
  guint64 value = 0;

  for (gsize i = 0; i < size; i++)
    value |= (guint64) p[i] << (8 * i);
  return value;
}

/* Where a child lies in the payload; FALSE when it is empty or GVariant
 * answers with a default value (damaged framing). */
static gboolean
child_range (GVariant *parent, gsize index, const guchar *base, gsize len, gsize *start,
             gsize *end)
{
  g_autoptr (GVariant) child = g_variant_get_child_value (parent, index);
  const guchar *data = g_variant_get_data (child);
  gsize size = g_variant_get_size (child);

  if (size == 0 || data == NULL || data < base || size > len || data - base > (gssize) (len - size))
    return FALSE;
  *start = (gsize) (data - base);
  *end = *start + size;
  return TRUE;
}

static GVariant *
payload_variant (const guchar *payload, gsize len, const GVariantType *type)
{
  return g_variant_ref_sink (g_variant_new_from_data (type, payload, len, FALSE, NULL, NULL));
}

/* The processes' blocks as the framing in the buffer says, one per process.
 * Only framing is read (GVariant finds children from the offsets at
 * containers' ends). A damaged or misplaced element becomes an empty block:
 * its bytes are then read with the rest (and the checks that follow judge
 * them). */
static Block *
find_blocks (const guchar *payload, gsize len, const GVariantType *type, guint member,
             guint hole_first, guint hole_last, gsize *n_blocks)
{
  g_autoptr (GVariant) v = payload_variant (payload, len, type);
  g_autoptr (GVariant) series = g_variant_get_child_value (v, member);
  gsize n = g_variant_n_children (series), last_end = 0;
  Block *blocks = g_new0 (Block, MAX (n, 1));

  for (gsize p = 0; p < n; p++)
    {
      g_autoptr (GVariant) element = g_variant_get_child_value (series, p);
      Block b = { 0 };
      gsize first_end, last_start;

      if (!child_range (series, p, payload, len, &b.start, &b.end) || b.start < last_end)
        b.start = b.end = last_end;
      if (b.start == b.end
          || !child_range (element, hole_first, payload, len, &b.hole_start, &first_end)
          || !child_range (element, hole_last, payload, len, &last_start, &b.hole_end)
          || b.hole_start < b.start || b.hole_end > b.end || b.hole_start > b.hole_end)
        b.hole_start = b.hole_end = b.start; /* nothing to leave out */
      b.state = b.hole_start == b.hole_end ? BLOCK_READ : BLOCK_PENDING;
      last_end = b.end;
      blocks[p] = b;
    }
  *n_blocks = n;
  return blocks;
}

/* ---- reading -------------------------------------------------------------- */

/* FALSE with errno set on a read error, or errno 0 at the end of the file. */
static gboolean
pread_full (int fd, void *buf, gsize len, guint64 offset)
{
  return mg_pread_full (fd, buf, len, offset) == len;
}

/* The payload's bytes [start, end) into their place, if the file has them. */
static gboolean
read_into (int fd, guchar *payload, gsize start, gsize end)
{
  return end <= start || pread_full (fd, payload + start, end - start, HEADER_LEN + start);
}

/* Just the framing the blocks are found from: the payload's own offsets at
 * its end, the series array's offsets at the array's end, and the offsets
 * at each element's end. */
static void
read_framing (int fd, guchar *payload, gsize len, const GVariantType *type, guint member)
{
  g_autoptr (GVariant) v = NULL;
  g_autoptr (GVariant) series = NULL;
  gsize start, end, size, table;

  /* At most 8 bytes per member of the payload tuple. */
  read_into (fd, payload, len - MIN (len, 8 * 16), len);
  v = payload_variant (payload, len, type);
  if (!child_range (v, member, payload, len, &start, &end))
    return;
  size = end - start;
  read_into (fd, payload, end - offset_size (size), end);
  table = read_offset (payload + end - offset_size (size), offset_size (size));
  if (table >= size)
    return;
  read_into (fd, payload, start + table, end);
  series = g_variant_get_child_value (v, member);
  for (gsize p = 0, n = g_variant_n_children (series); p < n; p++)
    if (child_range (series, p, payload, len, &start, &end))
      read_into (fd, payload, end - MIN (end - start, 16), end);
}

/* One pass over the payload in pieces: its segments alternate between the
 * gaps around blocks and the blocks, each with its own CRC, combined into
 * the whole payload's. */
typedef struct {
  guchar *payload;
  gsize len;
  Block *blocks;
  gsize n_blocks;
  gsize block;        /* the block the current segment is, or comes before */
  gboolean in_block;
  gsize segment_start;
  guint32 segment_crc;
  guint32 whole_crc;
} Pass;

static gsize
segment_end (const Pass *pass)
{
  if (pass->in_block)
    return pass->blocks[pass->block].end;
  return pass->block < pass->n_blocks ? pass->blocks[pass->block].start : pass->len;
}

static void
close_segment (Pass *pass, gsize at)
{
  pass->whole_crc = mg_crc32_combine (pass->whole_crc, pass->segment_crc, at - pass->segment_start);
  if (pass->in_block)
    {
      pass->blocks[pass->block].crc = pass->segment_crc;
      pass->block++;
      pass->in_block = FALSE;
    }
  else if (pass->block < pass->n_blocks)
    pass->in_block = TRUE;
  pass->segment_start = at;
  pass->segment_crc = 0;
}

/* Copies what is not in the block's hole. */
static void
keep (Pass *pass, gsize at, const guchar *data, gsize n)
{
  const Block *b = pass->in_block ? &pass->blocks[pass->block] : NULL;
  gsize left_end = b ? MIN (at + n, MAX (at, b->hole_start)) : at + n;
  gsize right_start = b ? MAX (at, MIN (at + n, b->hole_end)) : at + n;

  memcpy (pass->payload + at, data, left_end - at);
  memcpy (pass->payload + right_start, data + (right_start - at), at + n - right_start);
}

static void
feed (Pass *pass, gsize at, const guchar *data, gsize n)
{
  while (n > 0)
    {
      gsize take = MIN (n, segment_end (pass) - at);

      pass->segment_crc = mg_crc32_update (pass->segment_crc, data, take);
      keep (pass, at, data, take);
      at += take;
      data += take;
      n -= take;
      if (at == segment_end (pass) && (pass->in_block || pass->block < pass->n_blocks))
        close_segment (pass, at);
    }
}

static void
finish (Pass *pass)
{
  /* Empty segments at the end (empty blocks, no gap after the last). */
  while (pass->in_block || pass->block < pass->n_blocks)
    close_segment (pass, pass->len);
  close_segment (pass, pass->len);
}

static gboolean
read_error (GError **error, const char *display, int saved, gsize got, gsize len)
{
  if (saved == 0)
    g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_TRUNCATED,
                 _("The profile “%s” is truncated: %zu of %llu bytes are there. It may still "
                   "be being written, or the copy was cut short."),
                 display, (size_t) (HEADER_LEN + got), (unsigned long long) (HEADER_LEN + len));
  else
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                 _("Could not read the profile “%s”: %s"), display, g_strerror (saved));
  return FALSE;
}

static gboolean
stream (int fd, Pass *pass, const char *display, GError **error)
{
  g_autofree guchar *chunk = g_malloc (CHUNK);

  for (gsize at = 0; at < pass->len; at += CHUNK)
    {
      gsize n = MIN (CHUNK, pass->len - at);

      if (!pread_full (fd, chunk, n, HEADER_LEN + at))
        return read_error (error, display, errno, at, pass->len);
      feed (pass, at, chunk, n);
    }
  finish (pass);
  return TRUE;
}

/* Format 3: only the gaps between the holes are read, straight into their
 * place, their CRC the payload's; each hole (a process's block) is checked
 * against its own CRC when it is read. So opening costs the same whatever
 * the number of processes. */
static gboolean
stream_gaps (int fd, guchar *payload, gsize len, const Block *blocks, gsize n_blocks,
             guint32 *crc, const char *display, GError **error)
{
  gsize at = 0;

  *crc = 0;
  for (gsize i = 0; i <= n_blocks; i++)
    {
      gsize end = i < n_blocks ? blocks[i].hole_start : len;

      for (; at < end; at += MIN (CHUNK, end - at))
        {
          gsize n = MIN (CHUNK, end - at);

          if (!pread_full (fd, payload + at, n, HEADER_LEN + at))
            return read_error (error, display, errno, at, len);
          *crc = mg_crc32_update (*crc, payload + at, n);
        }
      if (i < n_blocks)
        at = MAX (at, blocks[i].hole_end);
    }
  return TRUE;
}

guint32
mg_profile_source_gaps_crc (const guchar *payload, gsize len, const GVariantType *payload_type,
                            guint series_member, guint hole_first, guint hole_last)
{
  gsize n_blocks = 0, at = 0;
  g_autofree Block *blocks = find_blocks (payload, len, payload_type, series_member, hole_first,
                                          hole_last, &n_blocks);
  guint32 crc = 0;

  for (gsize i = 0; i < n_blocks; i++)
    {
      crc = mg_crc32_update (crc, payload + at, blocks[i].hole_start - MIN (at, blocks[i].hole_start));
      at = MAX (at, blocks[i].hole_end);
    }
  return mg_crc32_update (crc, payload + at, len - at);
}

static gboolean
same_blocks (const Block *a, gsize n_a, const Block *b, gsize n_b)
{
  if (n_a != n_b)
    return FALSE;
  for (gsize i = 0; i < n_a; i++)
    if (a[i].start != b[i].start || a[i].end != b[i].end || a[i].hole_start != b[i].hole_start
        || a[i].hole_end != b[i].hole_end)
      return FALSE;
  return TRUE;
}

/* The payload's memory: the holes' pages are left untouched, and never huge
 * pages (a few bytes of framing read into one would clear 2 MB). Small
 * payloads come zeroed from the heap. */
static guchar *
alloc_payload (gsize len)
{
  gpointer mem = NULL;

  if (len < HUGE_PAGE)
    return g_malloc0 (MAX (len, 1));
  if (posix_memalign (&mem, HUGE_PAGE, len) != 0)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, len);
#ifdef MADV_NOHUGEPAGE
  madvise (mem, (len + 4095) / 4096 * 4096, MADV_NOHUGEPAGE);
#endif
  return mem;
}

/* What comes before the first block (the aggregates the first view draws)
 * is worth huge pages: far fewer first-touch faults. */
static void
advise_head (guchar *payload, gsize head)
{
#ifdef MADV_HUGEPAGE
  gsize whole = head / HUGE_PAGE * HUGE_PAGE;

  if (whole > 0 && ((guintptr) payload % HUGE_PAGE) == 0)
    madvise (payload, whole, MADV_HUGEPAGE);
#endif
}

GBytes *
mg_profile_source_open (int fd, guint64 payload_len, guint32 crc, const GVariantType *payload_type,
                        guint series_member, guint hole_first, guint hole_last,
                        gboolean holes_checked, const char *display, MgProfileSource **source,
                        gboolean *changed, GError **error)
{
  gsize len = (gsize) payload_len;
  guchar *payload = alloc_payload (len);
  g_autoptr (GBytes) bytes = g_bytes_new_with_free_func (payload, len, g_free, payload);
  g_autofree Block *blocks = NULL;
  g_autofree Block *check = NULL;
  gsize n_blocks = 0, n_check = 0;
  Pass pass = { 0 };
  MgProfileSource *self;

  *source = NULL;
  *changed = FALSE;
  read_framing (fd, payload, len, payload_type, series_member);
  blocks = find_blocks (payload, len, payload_type, series_member, hole_first, hole_last,
                        &n_blocks);
  if (len >= HUGE_PAGE)
    advise_head (payload, n_blocks > 0 ? blocks[0].start : len);

  pass = (Pass) { payload, len, blocks, n_blocks, 0, FALSE, 0, 0, 0 };
  if (holes_checked ? !stream_gaps (fd, payload, len, blocks, n_blocks, &pass.whole_crc, display,
                                    error)
                    : !stream (fd, &pass, display, error))
    return NULL;
  if (pass.whole_crc != crc)
    {
      g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT,
                   _("The profile “%s” is damaged (%s) and cannot be opened."), display,
                   "checksum mismatch");
      return NULL;
    }
  /* The blocks as the checked bytes place them: other than the framing read
   * first says only if the file changed in between. */
  check = find_blocks (payload, len, payload_type, series_member, hole_first, hole_last,
                       &n_check);
  if (!same_blocks (blocks, n_blocks, check, n_check))
    {
      *changed = TRUE;
      return NULL;
    }

  self = g_new0 (MgProfileSource, 1);
  self->fd = -1;
  for (gsize i = 0; i < n_blocks && self->fd < 0; i++)
    if (blocks[i].state == BLOCK_PENDING && (self->fd = fcntl (fd, F_DUPFD_CLOEXEC, 0)) < 0)
      {
        int saved = errno;

        g_free (self);
        read_error (error, display, saved, 0, len);
        return NULL;
      }
  self->display = g_strdup (display);
  self->holes_checked = holes_checked;
  self->payload = payload;
  self->blocks = g_steal_pointer (&blocks);
  self->n_blocks = n_blocks;
  g_mutex_init (&self->lock);
  *source = self;
  return g_steal_pointer (&bytes);
}

void
mg_profile_source_attach (MgProfileSource *self, MgProcessSeries *series, guint n_metrics)
{
  self->series = series;
  self->n_metrics = n_metrics;
}

static void
empty_series (MgProfileSource *self, guint process)
{
  for (guint m = 0; self->series != NULL && m < self->n_metrics; m++)
    self->series[(gsize) process * self->n_metrics + m].n = 0;
}

gboolean
mg_profile_source_read (MgProfileSource *self, guint process, int pid, GError **error)
{
  Block *b;
  int state, saved = 0;

  if (self == NULL || process >= self->n_blocks)
    return TRUE;
  b = &self->blocks[process];
  state = g_atomic_int_get (&b->state);
  if (state == BLOCK_PENDING)
    {
      g_mutex_lock (&self->lock);
      state = b->state;
      if (state == BLOCK_PENDING)
        {
          if (!read_into (self->fd, self->payload, b->hole_start, b->hole_end))
            saved = errno;
          else if (self->holes_checked
                   ? mg_process_block_check (self->payload + b->hole_start,
                                             b->hole_end - b->hole_start)
                   : mg_crc32_update (0, self->payload + b->start, b->end - b->start) == b->crc)
            state = BLOCK_READ;
          if (state != BLOCK_READ)
            {
              empty_series (self, process);
              state = BLOCK_FAILED;
            }
          g_atomic_int_set (&b->state, state);
        }
      g_mutex_unlock (&self->lock);
    }
  if (state == BLOCK_READ)
    return TRUE;
  if (saved != 0)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                 _("Could not read the series of process %d from the profile “%s”: %s"), pid,
                 self->display, g_strerror (saved));
  else
    g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT,
                 _("The profile “%s” changed on disk after it was opened, so the series of "
                   "process %d cannot be read from it. Open the profile again."),
                 self->display, pid);
  return FALSE;
}

void
mg_profile_source_free (MgProfileSource *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  g_mutex_clear (&self->lock);
  g_free (self->blocks);
  g_free (self->display);
  g_free (self);
}
