/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The .mgprof file: a 24-byte header (magic, version, payload length,
 * CRC-32) and one little-endian GVariant payload. Layout documented in
 * docs/profile-format.md. Loading trusts nothing: every length, count and
 * index is checked before the profile points into the payload. */
#include "mg-config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mg-crc32.h"
#include "mg-process-block.h"
#include "mg-profile-header.h"
#include "mg-profile-internal.h"
#include "mg-profile-source.h"
#include "mg-pread.h"


/* The payload's type: run, metrics, groups, windows, aggregates, single
 * values, processes, process series, plugin errors, metric errors, events. */
/* Format 5: what Linux names as bytes (argv, working folder, hosts, a
 * process's host and program, the program's output) is stored as bytes
 * ("ay" with its NUL), not as UTF-8 text. */
#define RUN_TYPE_V4 "(assasxduudduis)"
#define RUN_TYPE "(aayayaayxduudduis)"
#define METRIC_TYPE "(sisiibbbmsmsbmsmsmsmsmsimsb(dddd)dmsibbbbmsmsi)"
#define GROUP_TYPE "(smsmsasmsi)"
#define PROCESS_TYPE_V4 "(iiimsmsddiib)"
#define PROCESS_TYPE "(iiimaymayddiib)"
#define PSERIES_TYPE_V2 "(adadab)"
#define PSERIES_TYPE "(uayab)"
#define PLUGIN_ERROR_TYPE "(imsmsims)"
#define METRIC_ERROR_TYPE "(imsimsudd)"
#define EVENT_TYPE "(idiims)"
#define OUTPUT_TYPE_V4 "(mst)"
#define OUTPUT_TYPE "(mayt)"
#define MEMBERS(run, process, pseries) \
  run "a" METRIC_TYPE "a" GROUP_TYPE "adadadaia(dddddu)" "a" process "a" pseries \
  "a" PLUGIN_ERROR_TYPE "a" METRIC_ERROR_TYPE "a" EVENT_TYPE
#define MEMBERS_V4(pseries) MEMBERS (RUN_TYPE_V4, PROCESS_TYPE_V4, pseries)
#define PAYLOAD_TYPE_V1 "(" MEMBERS_V4 (PSERIES_TYPE_V2) ")"
#define PAYLOAD_TYPE_V2 "(" MEMBERS_V4 (PSERIES_TYPE_V2) OUTPUT_TYPE_V4 ")"
#define PAYLOAD_TYPE_V3 "(" MEMBERS_V4 (PSERIES_TYPE) OUTPUT_TYPE_V4 ")"
/* Format 4: and the precision the processes' series are stored at. */
#define PRECISION_TYPE "u"
#define PAYLOAD_TYPE_V4 "(" MEMBERS_V4 (PSERIES_TYPE) OUTPUT_TYPE_V4 PRECISION_TYPE ")"
#define PAYLOAD_TYPE "(" MEMBERS (RUN_TYPE, PROCESS_TYPE, PSERIES_TYPE) OUTPUT_TYPE \
                     PRECISION_TYPE ")"
#define SERIES_MEMBER 9
#define OUTPUT_MEMBER 13
#define PRECISION_MEMBER 14

static const GVariantType *payload_type (guint32 version);

/* The members of a process's tuple the bulk is (read when asked for):
 * its times and values, or its block (format 3). */
static guint
hole_first (guint32 version)
{
  return version >= 3 ? 1 : 0;
}

guint32
mg_profile_payload_crc (const guchar *payload, gsize len, guint32 version)
{
  if (version < 3)
    return mg_crc32_update (0, payload, len);
  return mg_profile_source_gaps_crc (payload, len, payload_type (version), SERIES_MEMBER,
                                     hole_first (version), 1);
}

/* ---- writing ---- */

/* Text the profile holds as UTF-8 (definitions, messages): what a plugin
 * or a file gave that is not valid is stored with its invalid sequences
 * replaced, never refused (GVariant asserts on invalid strings). */
static GVariant *
text_variant (const char *s)
{
  g_autofree char *valid = NULL;

  if (s == NULL)
    s = "";
  if (g_utf8_validate (s, -1, NULL))
    return g_variant_new_string (s);
  valid = g_utf8_make_valid (s, -1);
  return g_variant_new_string (valid);
}

static GVariant *
maybe_string (const char *s)
{
  return g_variant_new_maybe (G_VARIANT_TYPE_STRING, s != NULL ? text_variant (s) : NULL);
}

static GVariant *
texts_variant (char **strv, gssize n)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE_STRING_ARRAY);
  for (gssize i = 0; strv != NULL && (n < 0 ? strv[i] != NULL : i < n); i++)
    g_variant_builder_add_value (&b, text_variant (strv[i]));
  return g_variant_builder_end (&b);
}

/* Names Linux gives as bytes: kept as they are (format 5). */
static GVariant *
bytes_variant (const char *s)
{
  return g_variant_new_bytestring (s != NULL ? s : "");
}

static GVariant *
maybe_bytes (const char *s)
{
  return g_variant_new_maybe (G_VARIANT_TYPE_BYTESTRING, s != NULL ? bytes_variant (s) : NULL);
}

static GVariant *
bytes_array_variant (char **strv)
{
  static const char *const none[] = { NULL };

  return g_variant_new_bytestring_array (strv != NULL ? (const char *const *) strv : none, -1);
}

/* A view of memory the profile keeps alive while the payload is written. */
static GVariant *
doubles_variant (const double *values, gsize n)
{
  return g_variant_new_from_data (G_VARIANT_TYPE ("ad"), n > 0 ? values : NULL,
                                  n * sizeof (double), TRUE, NULL, NULL);
}

static GVariant *
run_to_variant (const MgRunInfo *run)
{
  return g_variant_new ("(@aay@ay@aayxduuddui@s)", bytes_array_variant (run->argv),
                        bytes_variant (run->working_dir), bytes_array_variant (run->hosts),
                        (gint64) run->start_time_us, run->duration_s, run->n_processes,
                        run->n_nodes, run->interval_start_ms, run->interval_end_ms,
                        run->max_samples, run->exit_status,
                        text_variant (run->metrograph_version));
}

static GVariant *
metric_to_variant (const MgMetricDef *d)
{
  return g_variant_new ("(@si@siibbb@ms@msb@ms@ms@ms@ms@msi@msb(dddd)d@msibbbb@ms@msi)",
                        text_variant (d->id), d->enabled, text_variant (d->units),
                        d->data_type, d->domain, d->one_per_node, d->backfill, d->sparse,
                        maybe_string (d->source_ref), maybe_string (d->function_name),
                        d->divide_by_sample_time, maybe_string (d->custom_data),
                        maybe_string (d->config_env), maybe_string (d->display_name),
                        maybe_string (d->description), maybe_string (d->type_name), d->type,
                        maybe_string (d->colour_spec), d->has_colour, d->colour.r, d->colour.g,
                        d->colour.b, d->colour.a, d->display_factor,
                        maybe_string (d->display_units), d->decimal_places,
                        d->auto_display_factor, d->accumulate, d->normalize_percentages,
                        d->clamp_percentages, maybe_string (d->integral_name),
                        maybe_string (d->file), d->line);
}

static GVariant *
group_to_variant (const MgMetricGroup *g)
{
  g_autoptr(GPtrArray) refs = g_ptr_array_new ();

  for (guint i = 0; g->metric_refs != NULL && i < g->metric_refs->len; i++)
    g_ptr_array_add (refs, g_ptr_array_index (g->metric_refs, i));
  return g_variant_new ("(@s@ms@ms@as@msi)", text_variant (g->id),
                        maybe_string (g->display_name), maybe_string (g->description),
                        texts_variant ((char **) refs->pdata, refs->len),
                        maybe_string (g->file), g->line);
}

static GVariant *
block_variant (GBytes *block)
{
  return g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, block, TRUE);
}

static GVariant *
process_series_to_variant (MgProfile *self, guint p, GBytes *block)
{
  guint n_metrics = self->metrics->len;
  g_autofree guint8 *reported = g_new0 (guint8, MAX (n_metrics, 1));

  for (guint m = 0; m < n_metrics; m++)
    reported[m] = self->process_series[(gsize) p * n_metrics + m].n > 0;
  if (self->packed != NULL)
    memcpy (reported, self->packed[p].reported, n_metrics);
  return g_variant_new ("(u@ay@ab)", (guint32) self->process_n[p], block_variant (block),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_BOOLEAN, reported, n_metrics,
                                                   sizeof (guint8)));
}

/* ---- the processes' blocks, encoded on every core ---- */

typedef struct {
  MgProfile *profile;
  GBytes **blocks;
  gint failed;                   /* a process whose block did not decode, + 1; or 0 */
} EncodeJob;

/* A packed process's block again at the profile's precision (the blocks
 * were packed exact, to compute the aggregates): decoded and encoded; NULL
 * when it does not decode (a file's block whose CRC matches its damage). */
static GBytes *
transcode (MgProfile *self, guint p)
{
  const MgPackedProcess *packed = &self->packed[p];
  guint n_metrics = self->metrics->len;
  gsize n = self->process_n[p];
  g_autofree double *times = g_new (double, MAX (n, 1));
  g_autofree double *values = g_new (double, MAX ((gsize) n_metrics * MG_PROCESS_SERIES_N * n, 1));

  if (!mg_process_block_decode (packed->block, packed->size, n, n_metrics, packed->reported,
                                times, values))
    return NULL;
  return mg_process_block_encode (n, n_metrics, times, values, packed->reported,
                                  self->process_precision);
}

static void
encode_one (gpointer data, gpointer user_data)
{
  guint p = GPOINTER_TO_UINT (data) - 1;
  EncodeJob *job = user_data;
  MgProfile *self = job->profile;
  guint n_metrics = self->metrics->len;
  const MgProcessSeries *first;
  g_autofree guint8 *reported = NULL;
  gsize n = n_metrics > 0 ? self->process_n[p] : 0;

  if (self->packed != NULL)
    {
      job->blocks[p] = transcode (self, p);
      if (job->blocks[p] == NULL)
        g_atomic_int_compare_and_exchange (&job->failed, 0, (gint) p + 1);
      return;
    }
  first = &self->process_series[(gsize) p * n_metrics];
  reported = g_new0 (guint8, MAX (n_metrics, 1));
  for (guint m = 0; m < n_metrics; m++)
    reported[m] = first[m].n > 0;
  job->blocks[p] = mg_process_block_encode (n, n_metrics, n > 0 ? first->times : NULL,
                                            n > 0 ? first->mins : NULL, reported,
                                            self->process_precision);
}

/* Each process's block: a packed profile's as they are, unless they are
 * to be stored at a lower precision than they were packed at; others
 * encoded. *failed: a process whose block did not decode, + 1 (its block
 * NULL); or 0. */
static GBytes **
process_blocks (MgProfile *self, guint *failed)
{
  guint n_proc = self->processes->len;
  EncodeJob job = { self, g_new0 (GBytes *, MAX (n_proc, 1)), 0 };
  GThreadPool *pool = NULL;

  for (guint p = 0; p < n_proc; p++)
    {
      if (self->packed != NULL && self->packed_precision == self->process_precision)
        {
          job.blocks[p] = g_bytes_new_static (self->packed[p].block, self->packed[p].size);
          continue;
        }
      /* One process (a tool, a script's step): no thread to start. */
      if (n_proc == 1)
        {
          encode_one (GUINT_TO_POINTER (p + 1), &job);
          continue;
        }
      if (pool == NULL)
        pool = g_thread_pool_new (encode_one, &job, (int) MIN (g_get_num_processors (), 8),
                                  FALSE, NULL);
      g_thread_pool_push (pool, GUINT_TO_POINTER (p + 1), NULL);
    }
  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);
  *failed = (guint) job.failed;
  return job.blocks;
}

static GVariant *
profile_to_variant (MgProfile *self, GBytes **blocks)
{
  guint n_metrics = self->metrics->len;
  gsize n_win = self->n_windows;
  GVariantBuilder b;
  GVariant *parts[11];

  parts[0] = run_to_variant (&self->run);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" METRIC_TYPE));
  for (guint m = 0; m < n_metrics; m++)
    g_variant_builder_add_value (&b, metric_to_variant (g_ptr_array_index (self->metrics, m)));
  parts[1] = g_variant_builder_end (&b);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" GROUP_TYPE));
  for (guint i = 0; i < self->groups->len; i++)
    g_variant_builder_add_value (&b, group_to_variant (g_ptr_array_index (self->groups, i)));
  parts[2] = g_variant_builder_end (&b);

  parts[3] = doubles_variant (self->window_starts, n_win);
  parts[4] = doubles_variant (self->window_ends, n_win);
  /* The aggregates are one block each, starting at series[0]. */
  parts[5] = doubles_variant (n_metrics > 0 ? self->series[0].mins : NULL,
                              (gsize) n_metrics * MG_SERIES_N_DOUBLES * n_win);
  parts[6] = g_variant_new_from_data (G_VARIANT_TYPE ("ai"),
                                      n_metrics > 0 && n_win > 0 ? self->series[0].min_process : NULL,
                                      (gsize) n_metrics * MG_SERIES_N_INDICES * n_win * sizeof (gint32),
                                      TRUE, NULL, NULL);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a(dddddu)"));
  for (guint m = 0; m < n_metrics; m++)
    {
      const MgSingleValue *v = &self->singles[m];

      g_variant_builder_add (&b, "(dddddu)", v->min, v->max, v->mean, v->var, v->sum, v->count);
    }
  parts[7] = g_variant_builder_end (&b);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" PROCESS_TYPE));
  for (guint p = 0; p < self->processes->len; p++)
    {
      const MgProcessInfo *i = &g_array_index (self->processes, MgProcessInfo, p);

      g_variant_builder_add (&b, "(iii@may@mayddiib)", i->pid, i->ppid, i->rank,
                             maybe_bytes (i->host), maybe_bytes (i->program), i->start_s,
                             i->end_s, (gint32) i->end, i->status, i->node_leader);
    }
  parts[8] = g_variant_builder_end (&b);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" PSERIES_TYPE));
  for (guint p = 0; p < self->processes->len; p++)
    g_variant_builder_add_value (&b, process_series_to_variant (self, p, blocks[p]));
  parts[9] = g_variant_builder_end (&b);

  g_variant_builder_init (&b, G_VARIANT_TYPE ("a" PLUGIN_ERROR_TYPE));
  for (guint i = 0; i < self->plugin_errors->len; i++)
    {
      const MgPluginError *e = &g_array_index (self->plugin_errors, MgPluginError, i);

      g_variant_builder_add (&b, "(i@ms@msi@ms)", e->process, maybe_string (e->source_id),
                             maybe_string (e->library), e->code, maybe_string (e->message));
    }
  parts[10] = g_variant_builder_end (&b);

  {
    GVariantBuilder me, ev;

    g_variant_builder_init (&me, G_VARIANT_TYPE ("a" METRIC_ERROR_TYPE));
    for (guint i = 0; i < self->metric_errors->len; i++)
      {
        const MgMetricError *e = &g_array_index (self->metric_errors, MgMetricError, i);

        g_variant_builder_add (&me, "(i@msi@msudd)", e->process, maybe_string (e->metric_id),
                               e->code, maybe_string (e->message), e->count, e->first_s,
                               e->last_s);
      }
    g_variant_builder_init (&ev, G_VARIANT_TYPE ("a" EVENT_TYPE));
    for (guint i = 0; i < self->events->len; i++)
      {
        const MgProcessEvent *e = &g_array_index (self->events, MgProcessEvent, i);

        g_variant_builder_add (&ev, "(idii@ms)", e->process, e->time_s, (gint32) e->kind,
                               e->status, maybe_string (e->message));
      }
    return g_variant_new ("(@" RUN_TYPE "@a" METRIC_TYPE "@a" GROUP_TYPE "@ad@ad@ad@ai"
                          "@a(dddddu)@a" PROCESS_TYPE "@a" PSERIES_TYPE "@a" PLUGIN_ERROR_TYPE
                          "@a" METRIC_ERROR_TYPE "@a" EVENT_TYPE "@" OUTPUT_TYPE PRECISION_TYPE ")",
                          parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6],
                          parts[7], parts[8], parts[9], parts[10],
                          g_variant_builder_end (&me), g_variant_builder_end (&ev),
                          g_variant_new ("(@mayt)", maybe_bytes (self->run.output),
                                         (guint64) self->run.output_cut),
                          (guint32) self->process_precision);
  }
}

typedef enum { IO_CREATE, IO_WRITE, IO_RENAME } IoStep;

static gboolean
io_error (GError **error, IoStep step, const char *path, int saved)
{
  g_autofree char *name = g_filename_display_name (path);
  GFileError code = g_file_error_from_errno (saved);

  if (step == IO_CREATE)
    g_set_error (error, G_FILE_ERROR, code, _("Could not create the profile “%s”: %s"), name,
                 g_strerror (saved));
  else if (step == IO_WRITE)
    g_set_error (error, G_FILE_ERROR, code, _("Could not write the profile “%s”: %s"), name,
                 g_strerror (saved));
  else
    g_set_error (error, G_FILE_ERROR, code, _("Could not save the profile as “%s”: %s"), name,
                 g_strerror (saved));
  return FALSE;
}

/* Serialises the payload straight into the (pre-allocated, so that a full
 * disk is an error here rather than a SIGBUS later) mapped file: no copy of
 * a few hundred megabytes in between. */
static gboolean
write_mapped (int fd, GVariant *payload, const char *path, GError **error)
{
  gsize size = g_variant_get_size (payload);
  gsize total = MG_PROFILE_HEADER_LEN + size;
  guint32 version = GUINT32_TO_LE (MG_PROFILE_VERSION), crc;
  guint64 length = GUINT64_TO_LE ((guint64) size);
  guchar *map;
  int rc;

  rc = posix_fallocate (fd, 0, (off_t) total);
  if (rc != 0)
    return io_error (error, IO_WRITE, path, rc);
  map = mmap (NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
  if (map == MAP_FAILED)
    return io_error (error, IO_WRITE, path, errno);
  g_variant_store (payload, map + MG_PROFILE_HEADER_LEN);
  crc = GUINT32_TO_LE (mg_profile_payload_crc (map + MG_PROFILE_HEADER_LEN, size,
                                               MG_PROFILE_VERSION));
  memcpy (map, MG_PROFILE_MAGIC, MG_PROFILE_MAGIC_LEN);
  memcpy (map + 8, &version, 4);
  memcpy (map + 12, &crc, 4);
  memcpy (map + 16, &length, 8);
  /* No msync: on Linux the mapping's pages are the file's page cache, and
   * the caller's fsync writes them (msync (MS_SYNC) was a second fsync). */
  munmap (map, total);
  return TRUE;
}

gboolean
mg_profile_save (MgProfile *self, const char *path, GError **error)
{
  g_autoptr(GVariant) payload = NULL;
  g_autofree char *tmp_path = NULL;
  GBytes **blocks;
  guint failed;
  int fd;

  g_return_val_if_fail (MG_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* A profile opened from a file reads its processes' series when asked;
   * a format 3 file's blocks are written again as they are. */
  for (guint p = 0; p < self->processes->len; p++)
    if (!mg_profile_fetch_process (self, p, TRUE, error))
      return FALSE;
  blocks = process_blocks (self, &failed);
  if (failed == 0)
    payload = g_variant_ref_sink (profile_to_variant (self, blocks));
  for (guint p = 0; p < self->processes->len; p++)
    g_clear_pointer (&blocks[p], g_bytes_unref);
  g_clear_pointer (&blocks, g_free);
  /* Decoding it as a reader would says so, naming the file and the process. */
  if (failed > 0 && !mg_profile_fetch_process (self, failed - 1, FALSE, error))
    return FALSE;
  g_return_val_if_fail (failed == 0, FALSE);
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (payload);

      g_variant_unref (payload);
      payload = swapped;
    }

  /* A temporary file beside the target, renamed over it once on disk:
   * never a half-written file under the final name. */
  tmp_path = g_strconcat (path, ".XXXXXX", NULL);
  fd = g_mkstemp_full (tmp_path, O_RDWR | O_CLOEXEC, 0666);
  if (fd < 0)
    return io_error (error, IO_CREATE, path, errno);
  if (!write_mapped (fd, payload, path, error))
    {
      close (fd);
      g_unlink (tmp_path);
      return FALSE;
    }
  if (fsync (fd) != 0 || close (fd) != 0)
    {
      int saved = errno;

      g_unlink (tmp_path);
      return io_error (error, IO_WRITE, path, saved);
    }
  if (g_rename (tmp_path, path) != 0)
    {
      int saved = errno;

      g_unlink (tmp_path);
      return io_error (error, IO_RENAME, path, saved);
    }
  return TRUE;
}

/* ---- reading ---- */

static char *
dup_maybe (GVariant *maybe)
{
  g_autoptr(GVariant) inner = g_variant_get_maybe (maybe);

  return inner != NULL ? g_variant_dup_string (inner, NULL) : NULL;
}

static gboolean
corrupt (GError **error, const char *name, const char *what)
{
  g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT,
               _("The profile “%s” is damaged (%s) and cannot be opened."), name, what);
  return FALSE;
}

static gboolean
enum_ok (gint32 value, gint32 last)
{
  return value >= 0 && value <= last;
}

/* A name stored as bytes (format 5): its bytes and the NUL that ends
 * them, no other NUL. NULL when it is not so. */
static char *
dup_bytes (GVariant *ay)
{
  gsize n = 0;
  const char *data = g_variant_get_fixed_array (ay, &n, 1);

  if (n == 0 || data[n - 1] != '\0' || memchr (data, '\0', n - 1) != NULL)
    return NULL;
  return g_strndup (data, n - 1);
}

/* A text member: "s" before format 5, bytes from it. */
static gboolean
dup_name (GVariant *v, guint32 version, char **out)
{
  if (version < 5)
    {
      *out = g_variant_dup_string (v, NULL);
      return TRUE;
    }
  *out = dup_bytes (v);
  return *out != NULL;
}

static gboolean
dup_maybe_name (GVariant *maybe, guint32 version, char **out)
{
  g_autoptr(GVariant) inner = g_variant_get_maybe (maybe);

  *out = NULL;
  return inner == NULL || dup_name (inner, version, out);
}

static gboolean
dup_names (GVariant *array, guint32 version, char ***out)
{
  gsize n = g_variant_n_children (array);
  char **names = g_new0 (char *, n + 1);

  *out = names;
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (array, i);

      if (!dup_name (child, version, &names[i]))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_run (MgProfile *self, GVariant *v, guint32 version)
{
  MgRunInfo *r = &self->run;
  g_autoptr(GVariant) argv = g_variant_get_child_value (v, 0);
  g_autoptr(GVariant) folder = g_variant_get_child_value (v, 1);
  g_autoptr(GVariant) hosts = g_variant_get_child_value (v, 2);
  gint64 start;

  if (!dup_names (argv, version, &r->argv) || !dup_names (hosts, version, &r->hosts)
      || !dup_name (folder, version, &r->working_dir))
    return FALSE;
  g_variant_get_child (v, 3, "x", &start);
  r->start_time_us = start;
  g_variant_get_child (v, 4, "d", &r->duration_s);
  g_variant_get_child (v, 5, "u", &r->n_processes);
  g_variant_get_child (v, 6, "u", &r->n_nodes);
  g_variant_get_child (v, 7, "d", &r->interval_start_ms);
  g_variant_get_child (v, 8, "d", &r->interval_end_ms);
  g_variant_get_child (v, 9, "u", &r->max_samples);
  g_variant_get_child (v, 10, "i", &r->exit_status);
  g_variant_get_child (v, 11, "s", &r->metrograph_version);
  return TRUE;
}

static MgMetricDef *
read_metric (GVariant *v)
{
  MgMetricDef *d = g_new0 (MgMetricDef, 1);
  GVariant *f[30];
  gint32 enabled, data_type, domain, type;

  for (guint i = 0; i < G_N_ELEMENTS (f); i++)
    f[i] = g_variant_get_child_value (v, i);
  d->id = g_variant_dup_string (f[0], NULL);
  enabled = g_variant_get_int32 (f[1]);
  d->units = g_variant_dup_string (f[2], NULL);
  data_type = g_variant_get_int32 (f[3]);
  domain = g_variant_get_int32 (f[4]);
  d->one_per_node = g_variant_get_boolean (f[5]);
  d->backfill = g_variant_get_boolean (f[6]);
  d->sparse = g_variant_get_boolean (f[7]);
  d->source_ref = dup_maybe (f[8]);
  d->function_name = dup_maybe (f[9]);
  d->divide_by_sample_time = g_variant_get_boolean (f[10]);
  d->custom_data = dup_maybe (f[11]);
  d->config_env = dup_maybe (f[12]);
  d->display_name = dup_maybe (f[13]);
  d->description = dup_maybe (f[14]);
  d->type_name = dup_maybe (f[15]);
  type = g_variant_get_int32 (f[16]);
  d->colour_spec = dup_maybe (f[17]);
  d->has_colour = g_variant_get_boolean (f[18]);
  g_variant_get (f[19], "(dddd)", &d->colour.r, &d->colour.g, &d->colour.b, &d->colour.a);
  d->display_factor = g_variant_get_double (f[20]);
  d->display_units = dup_maybe (f[21]);
  d->decimal_places = g_variant_get_int32 (f[22]);
  d->auto_display_factor = g_variant_get_boolean (f[23]);
  d->accumulate = g_variant_get_boolean (f[24]);
  d->normalize_percentages = g_variant_get_boolean (f[25]);
  d->clamp_percentages = g_variant_get_boolean (f[26]);
  d->integral_name = dup_maybe (f[27]);
  d->file = dup_maybe (f[28]);
  d->line = g_variant_get_int32 (f[29]);
  for (guint i = 0; i < G_N_ELEMENTS (f); i++)
    g_variant_unref (f[i]);

  if (!enum_ok (enabled, MG_ENABLED_NEVER) || !enum_ok (data_type, MG_DATA_TYPE_DOUBLE)
      || !enum_ok (domain, MG_DOMAIN_SINGLE_VALUE) || !enum_ok (type, MG_METRIC_TYPE_OTHER)
      || d->id[0] == '\0')
    {
      mg_metric_def_free (d);
      return NULL;
    }
  d->enabled = enabled;
  d->data_type = data_type;
  d->domain = domain;
  d->type = type;
  return d;
}

static MgMetricGroup *
read_group (GVariant *v)
{
  MgMetricGroup *g = g_new0 (MgMetricGroup, 1);
  g_autoptr(GVariant) name = g_variant_get_child_value (v, 1);
  g_autoptr(GVariant) description = g_variant_get_child_value (v, 2);
  g_autoptr(GVariant) refs = g_variant_get_child_value (v, 3);
  g_autoptr(GVariant) file = g_variant_get_child_value (v, 4);
  gsize n;
  const char **strv;

  g_variant_get_child (v, 0, "s", &g->id);
  g->display_name = dup_maybe (name);
  g->description = dup_maybe (description);
  g->metric_refs = g_ptr_array_new_with_free_func (g_free);
  strv = g_variant_get_strv (refs, &n);
  for (gsize i = 0; i < n; i++)
    g_ptr_array_add (g->metric_refs, g_strdup (strv[i]));
  g_free (strv);
  g->file = dup_maybe (file);
  g_variant_get_child (v, 5, "i", &g->line);
  return g;
}

/* A fixed array child of the payload, checked against the length it must
 * have; points into the payload (kept alive by self->backing). */
static const void *
fixed_child (GVariant *payload, guint index, gsize expected, gsize element)
{
  g_autoptr(GVariant) child = g_variant_get_child_value (payload, index);
  gsize n = 0;
  const void *data = g_variant_get_fixed_array (child, &n, element);

  if (n != expected)
    return NULL;
  return expected > 0 ? data : "";
}

/* Format 3: each process's block stays packed (and, read in place, on
 * disk) until the process is asked for; n and the reported flags are
 * outside it, so the shape is checked now. */
static gboolean
read_packed_processes (MgProfile *self, GVariant *series, const char *name, GError **error)
{
  guint n_metrics = self->metrics->len;
  gsize n_proc = self->processes->len;

  self->packed = g_new0 (MgPackedProcess, MAX (n_proc, 1));
  for (gsize p = 0; p < n_proc; p++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (series, p);
      g_autoptr(GVariant) block = g_variant_get_child_value (v, 1);
      MgPackedProcess *packed = &self->packed[p];
      guint32 n;

      g_variant_get_child (v, 0, "u", &n);
      packed->block = g_variant_get_fixed_array (block, &packed->size, 1);
      packed->reported = fixed_child (v, 2, n_metrics, sizeof (guint8));
      if (packed->reported == NULL
          || !mg_process_block_plausible (packed->size, n, n_metrics, packed->reported))
        return corrupt (error, name, "process series length");
      self->process_n[p] = n;
    }
  return TRUE;
}

static gboolean
read_processes (MgProfile *self, GVariant *payload, guint32 version, const char *name,
                GError **error)
{
  g_autoptr(GVariant) list = g_variant_get_child_value (payload, 8);
  g_autoptr(GVariant) series = g_variant_get_child_value (payload, 9);
  guint n_metrics = self->metrics->len;
  gsize n_proc = g_variant_n_children (list);

  if (g_variant_n_children (series) != n_proc || self->run.n_processes != n_proc)
    return corrupt (error, name, "process count");

  for (gsize p = 0; p < n_proc; p++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (list, p);
      g_autoptr(GVariant) host = g_variant_get_child_value (v, 3);
      g_autoptr(GVariant) program = g_variant_get_child_value (v, 4);
      MgProcessInfo info = { 0 };
      gint32 end;

      g_variant_get_child (v, 0, "i", &info.pid);
      g_variant_get_child (v, 1, "i", &info.ppid);
      g_variant_get_child (v, 2, "i", &info.rank);
      if (!dup_maybe_name (host, version, &info.host)
          || !dup_maybe_name (program, version, &info.program))
        {
          g_free (info.host);
          return corrupt (error, name, "process name");
        }
      g_variant_get_child (v, 5, "d", &info.start_s);
      g_variant_get_child (v, 6, "d", &info.end_s);
      g_variant_get_child (v, 7, "i", &end);
      g_variant_get_child (v, 8, "i", &info.status);
      g_variant_get_child (v, 9, "b", &info.node_leader);
      info.end = enum_ok (end, MG_PROCESS_END_EXECED) ? end : MG_PROCESS_END_UNKNOWN;
      g_array_append_val (self->processes, info);
      if (!enum_ok (end, MG_PROCESS_END_EXECED))
        return corrupt (error, name, "process end");
    }

  self->process_series = g_new0 (MgProcessSeries, MAX (n_proc * n_metrics, 1));
  self->process_n = g_new0 (gsize, MAX (n_proc, 1));
  if (version >= 3)
    return read_packed_processes (self, series, name, error);
  for (gsize p = 0; p < n_proc; p++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (series, p);
      g_autoptr(GVariant) times_v = g_variant_get_child_value (v, 0);
      gsize n = 0;
      const double *times = g_variant_get_fixed_array (times_v, &n, sizeof (double));
      const double *values = fixed_child (v, 1, n * n_metrics * MG_PROCESS_SERIES_N, sizeof (double));
      const guint8 *reported = fixed_child (v, 2, n_metrics, sizeof (guint8));

      if (values == NULL || reported == NULL)
        return corrupt (error, name, "process series length");
      self->process_n[p] = n;
      for (guint m = 0; m < n_metrics; m++)
        {
          MgProcessSeries *s = &self->process_series[p * n_metrics + m];
          const double *block = values + (gsize) m * MG_PROCESS_SERIES_N * n;

          *s = (MgProcessSeries) { reported[m] ? n : 0, times, block, block + n, block + 2 * n };
        }
    }
  return TRUE;
}

static gboolean
process_ok (MgProfile *self, int process)
{
  return process >= -1 && process < (int) self->processes->len;
}

static gboolean
read_lists (MgProfile *self, GVariant *payload, const char *name, GError **error)
{
  g_autoptr(GVariant) plugin_errors = g_variant_get_child_value (payload, 10);
  g_autoptr(GVariant) metric_errors = g_variant_get_child_value (payload, 11);
  g_autoptr(GVariant) events = g_variant_get_child_value (payload, 12);

  for (gsize i = 0; i < g_variant_n_children (plugin_errors); i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (plugin_errors, i);
      g_autoptr(GVariant) source = g_variant_get_child_value (v, 1);
      g_autoptr(GVariant) library = g_variant_get_child_value (v, 2);
      g_autoptr(GVariant) message = g_variant_get_child_value (v, 4);
      MgPluginError e = { 0 };

      g_variant_get_child (v, 0, "i", &e.process);
      g_variant_get_child (v, 3, "i", &e.code);
      e.source_id = dup_maybe (source);
      e.library = dup_maybe (library);
      e.message = dup_maybe (message);
      g_array_append_val (self->plugin_errors, e);
      if (!process_ok (self, e.process))
        return corrupt (error, name, "plugin error's process");
    }
  for (gsize i = 0; i < g_variant_n_children (metric_errors); i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (metric_errors, i);
      g_autoptr(GVariant) id = g_variant_get_child_value (v, 1);
      g_autoptr(GVariant) message = g_variant_get_child_value (v, 3);
      MgMetricError e = { 0 };

      g_variant_get_child (v, 0, "i", &e.process);
      g_variant_get_child (v, 2, "i", &e.code);
      g_variant_get_child (v, 4, "u", &e.count);
      g_variant_get_child (v, 5, "d", &e.first_s);
      g_variant_get_child (v, 6, "d", &e.last_s);
      e.metric_id = dup_maybe (id);
      e.message = dup_maybe (message);
      g_array_append_val (self->metric_errors, e);
      if (!process_ok (self, e.process))
        return corrupt (error, name, "metric error's process");
    }
  for (gsize i = 0; i < g_variant_n_children (events); i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (events, i);
      g_autoptr(GVariant) message = g_variant_get_child_value (v, 4);
      MgProcessEvent e = { 0 };
      gint32 kind;

      g_variant_get_child (v, 0, "i", &e.process);
      g_variant_get_child (v, 1, "d", &e.time_s);
      g_variant_get_child (v, 2, "i", &kind);
      g_variant_get_child (v, 3, "i", &e.status);
      e.message = dup_maybe (message);
      e.kind = enum_ok (kind, MG_EVENT_LAST) ? kind : MG_EVENT_START;
      g_array_append_val (self->events, e);
      if (!process_ok (self, e.process) || !enum_ok (kind, MG_EVENT_LAST))
        return corrupt (error, name, "process event");
    }
  return TRUE;
}

/* Format 2: the program's output, within its bound. */
static gboolean
read_output (MgProfile *self, GVariant *payload, guint32 version, const char *name,
             GError **error)
{
  g_autoptr(GVariant) output = g_variant_get_child_value (payload, OUTPUT_MEMBER);
  g_autoptr(GVariant) text = g_variant_get_child_value (output, 0);

  if (!dup_maybe_name (text, version, &self->run.output))
    return corrupt (error, name, "program output");
  g_variant_get_child (output, 1, "t", &self->run.output_cut);
  if (self->run.output != NULL && strlen (self->run.output) > MG_PROFILE_OUTPUT_MAX)
    return corrupt (error, name, "program output longer than its bound");
  return TRUE;
}

/* Format 4: what the processes' blocks were stored at (older: exact). */
static gboolean
read_precision (MgProfile *self, GVariant *payload, const char *name, GError **error)
{
  guint32 precision;

  g_variant_get_child (payload, PRECISION_MEMBER, "u", &precision);
  if (precision > MG_PROCESS_PRECISION_LAST)
    return corrupt (error, name, "process precision");
  self->packed_precision = self->process_precision = precision;
  return TRUE;
}

/* Every window is a finite interval (start <= end) within
 * MG_PROFILE_MAX_TIME_S of the run's start: a NaN or -1e308 would be drawn
 * nowhere and exported as null. */
static gboolean
windows_ok (const double *starts, const double *ends, gsize n)
{
  for (gsize w = 0; w < n; w++)
    if (!(fabs (starts[w]) <= MG_PROFILE_MAX_TIME_S && fabs (ends[w]) <= MG_PROFILE_MAX_TIME_S
          && starts[w] <= ends[w]))
      return FALSE;
  return TRUE;
}

static gboolean
read_payload (MgProfile *self, GVariant *payload, guint32 version, const char *name,
              GError **error)
{
  g_autoptr(GVariant) run = g_variant_get_child_value (payload, 0);
  g_autoptr(GVariant) metrics = g_variant_get_child_value (payload, 1);
  g_autoptr(GVariant) groups = g_variant_get_child_value (payload, 2);
  g_autoptr(GVariant) singles = g_variant_get_child_value (payload, 7);
  g_autoptr(GVariant) starts = g_variant_get_child_value (payload, 3);
  const double *values;
  const gint32 *indices;
  gsize n_metrics, n_win = 0;

  if (!read_run (self, run, version))
    return corrupt (error, name, "run's names");
  n_metrics = g_variant_n_children (metrics);
  for (gsize m = 0; m < n_metrics; m++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (metrics, m);
      MgMetricDef *def = read_metric (v);

      if (def == NULL)
        return corrupt (error, name, "metric definition");
      g_ptr_array_add (self->metrics, def);
    }
  for (gsize i = 0; i < g_variant_n_children (groups); i++)
    {
      g_autoptr(GVariant) v = g_variant_get_child_value (groups, i);

      g_ptr_array_add (self->groups, read_group (v));
    }

  self->window_starts = g_variant_get_fixed_array (starts, &n_win, sizeof (double));
  self->window_ends = fixed_child (payload, 4, n_win, sizeof (double));
  if (self->window_ends == NULL || n_win > G_MAXUINT)
    return corrupt (error, name, "window count");
  if (!windows_ok (self->window_starts, self->window_ends, n_win))
    return corrupt (error, name, "sample window times");
  self->n_windows = n_win;
  values = fixed_child (payload, 5, n_metrics * MG_SERIES_N_DOUBLES * n_win, sizeof (double));
  indices = fixed_child (payload, 6, n_metrics * MG_SERIES_N_INDICES * n_win, sizeof (gint32));
  if (values == NULL || indices == NULL || g_variant_n_children (singles) != n_metrics)
    return corrupt (error, name, "aggregate series length");
  mg_profile_set_aggregates (self, values, indices);

  self->singles = g_new0 (MgSingleValue, MAX (n_metrics, 1));
  for (gsize m = 0; m < n_metrics; m++)
    {
      MgSingleValue *s = &self->singles[m];

      g_variant_get_child (singles, m, "(dddddu)", &s->min, &s->max, &s->mean, &s->var,
                           &s->sum, &s->count);
    }

  if (g_variant_n_children (payload) > OUTPUT_MEMBER
      && !read_output (self, payload, version, name, error))
    return FALSE;
  if (g_variant_n_children (payload) > PRECISION_MEMBER
      && !read_precision (self, payload, name, error))
    return FALSE;
  if (!read_processes (self, payload, version, name, error))
    return FALSE;
  for (gsize i = 0; i < n_metrics * MG_SERIES_N_INDICES * n_win; i++)
    if (!process_ok (self, indices[i]))
      return corrupt (error, name, "process index in a series");
  return read_lists (self, payload, name, error);
}

/* Every part but the big numeric arrays must be in normal form (valid
 * strings, consistent framing). GVariant reads non-normal data safely, and
 * the arrays' lengths are checked one by one, so checking the arrays'
 * hundreds of megabytes element by element would only cost time. */
static gboolean
small_parts_normal (GVariant *payload)
{
  static const guint parts[] = { 0, 1, 2, 7, 8, 10, 11, 12, OUTPUT_MEMBER };

  for (guint i = 0; i < G_N_ELEMENTS (parts) && parts[i] < g_variant_n_children (payload); i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (payload, parts[i]);

      if (!g_variant_is_normal_form (child))
        return FALSE;
    }
  return TRUE;
}

/* The payload's type in a file of this format version. */
static const GVariantType *
payload_type (guint32 version)
{
  switch (version)
    {
    case 1:
      return G_VARIANT_TYPE (PAYLOAD_TYPE_V1);
    case 2:
      return G_VARIANT_TYPE (PAYLOAD_TYPE_V2);
    case 3:
      return G_VARIANT_TYPE (PAYLOAD_TYPE_V3);
    case 4:
      return G_VARIANT_TYPE (PAYLOAD_TYPE_V4);
    default:
      return G_VARIANT_TYPE (PAYLOAD_TYPE);
    }
}

static gboolean
check_header (const guchar *data, gsize size, const char *name, guint64 *payload_len,
              guint32 *crc, guint32 *version_out, GError **error)
{
  guint32 version = MG_PROFILE_VERSION;

  if (size == 0)
    {
      g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NOT_A_PROFILE,
                   _("“%s” is empty, not a Metrograph profile."), name);
      return FALSE;
    }
  if (memcmp (data, MG_PROFILE_MAGIC, MIN (size, MG_PROFILE_MAGIC_LEN)) != 0)
    {
      g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NOT_A_PROFILE,
                   _("“%s” is not a Metrograph profile (.mgprof)."), name);
      return FALSE;
    }
  if (size >= MG_PROFILE_MAGIC_LEN + 4)
    {
      memcpy (&version, data + 8, 4);
      version = GUINT32_FROM_LE (version);
      if (version > MG_PROFILE_VERSION)
        {
          g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_VERSION,
                       _("The profile “%s” was written by a newer Metrograph (format %u; this "
                         "version reads format %u and older). Update Metrograph to open it."),
                       name, version, MG_PROFILE_VERSION);
          return FALSE;
        }
      if (version == 0)
        return corrupt (error, name, "format version 0");
    }
  if (size < MG_PROFILE_HEADER_LEN)
    {
      g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_TRUNCATED,
                   _("The profile “%s” is truncated: %zu bytes, shorter than its header."),
                   name, size);
      return FALSE;
    }
  *version_out = version;
  memcpy (crc, data + 12, 4);
  *crc = GUINT32_FROM_LE (*crc);
  memcpy (payload_len, data + 16, 8);
  *payload_len = GUINT64_FROM_LE (*payload_len);
  /* No file holds more than G_MAXUINT64 bytes: the length plus the header
   * would wrap around in the message. */
  if (*payload_len > G_MAXUINT64 - MG_PROFILE_HEADER_LEN)
    return corrupt (error, name, "payload length beyond any file");
  if (*payload_len > size - MG_PROFILE_HEADER_LEN)
    {
      g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_TRUNCATED,
                   _("The profile “%s” is truncated: %zu of %llu bytes are there. It may still "
                     "be being written, or the copy was cut short."),
                   name, size, (unsigned long long) (*payload_len + MG_PROFILE_HEADER_LEN));
      return FALSE;
    }
  if (*payload_len < size - MG_PROFILE_HEADER_LEN)
    return corrupt (error, name, "extra bytes after the data");
  return TRUE;
}

/* The payload (checked against its CRC) into a profile. */
static MgProfile *
parse_payload (GBytes *payload_bytes, guint32 version, const char *name, GError **error)
{
  g_autoptr(MgProfile) self = NULL;
  g_autoptr(GVariant) payload = NULL;

  payload = g_variant_ref_sink (g_variant_new_from_bytes (payload_type (version), payload_bytes,
                                                          FALSE));
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (payload);

      g_variant_unref (payload);
      payload = swapped;
    }
  if (!small_parts_normal (payload))
    {
      corrupt (error, name, "malformed data");
      return NULL;
    }

  self = mg_profile_new_empty ();
  self->backing = g_variant_get_data_as_bytes (payload);
  self->file_name = g_strdup (name);
  if (!read_payload (self, payload, version, name, error))
    return NULL;
  return g_steal_pointer (&self);
}

MgProfile *
mg_profile_load_bytes (GBytes *bytes, const char *name, GError **error)
{
  g_autoptr(GBytes) payload_bytes = NULL;
  const guchar *data;
  gsize size;
  guint64 payload_len;
  guint32 crc, version;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (name == NULL)
    name = "(memory)";

  data = g_bytes_get_data (bytes, &size);
  if (!check_header (data, size, name, &payload_len, &crc, &version, error))
    return NULL;
  if (mg_profile_payload_crc (data + MG_PROFILE_HEADER_LEN, payload_len, version) != crc)
    {
      corrupt (error, name, "checksum mismatch");
      return NULL;
    }

  /* GVariant needs 8-byte alignment; the header is 24 bytes and g_malloc'd
   * or mapped memory is aligned, so this is a view, not a copy. */
  payload_bytes = g_bytes_new_from_bytes (bytes, MG_PROFILE_HEADER_LEN, payload_len);
  return parse_payload (payload_bytes, version, name, error);
}

static gboolean
open_error (GError **error, const char *display, int saved)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
               _("Could not open the profile “%s”: %s"), display, g_strerror (saved));
  return FALSE;
}

/* The whole file in memory: for big-endian machines (the payload is
 * byte-swapped as a whole) and files that change while being read. Not a
 * mapping: a file truncated or rewritten in place (cp over it) while the
 * profile is open would make a mapping fault (SIGBUS) in the middle of
 * drawing. */
static GBytes *
read_whole_file (const char *path, const char *display, GError **error)
{
  struct stat st;
  guchar *data;
  gsize done = 0;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved = errno;

      if (fd >= 0)
        close (fd);
      open_error (error, display, saved);
      return NULL;
    }
  data = mg_profile_alloc_big (MAX ((gsize) st.st_size, 1));
  while (done < (gsize) st.st_size)
    {
      gssize n = read (fd, data + done, (gsize) st.st_size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          close (fd);
          g_free (data);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       _("Could not read the profile “%s”: %s"), display, g_strerror (saved));
          return NULL;
        }
      if (n == 0)
        break; /* shrank while we read: the header check reports it */
      done += n;
    }
  close (fd);
  return g_bytes_new_with_free_func (data, done, g_free, data);
}

static MgProfile *
load_whole_file (const char *path, const char *display, GError **error)
{
  g_autoptr(GBytes) bytes = read_whole_file (path, display, error);

  return bytes != NULL ? mg_profile_load_bytes (bytes, display, error) : NULL;
}

/* The header, as much of it as the file has. */
static gsize
read_header (int fd, guchar *header, gsize size)
{
  return mg_pread_full (fd, header, MIN (size, MG_PROFILE_HEADER_LEN), 0);
}

/* Read in place (mg-profile-source.h): all but the processes' own series
 * now, those when first asked for. */
static MgProfile *
load_in_place (int fd, gsize size, const char *path, const char *display, GError **error)
{
  guchar header[MG_PROFILE_HEADER_LEN];
  g_autoptr(GBytes) payload = NULL;
  MgProfileSource *source = NULL;
  MgProfile *self;
  guint64 payload_len;
  guint32 crc, version;
  gboolean changed = FALSE;
  gsize got = read_header (fd, header, size);

  /* A file shorter than fstat said has shrunk: judged by what is there. */
  if (got < MIN (size, MG_PROFILE_HEADER_LEN))
    size = got;
  if (!check_header (header, size, display, &payload_len, &crc, &version, error))
    return NULL;
  /* The bulk of a process: its times and values, or its block. */
  payload = mg_profile_source_open (fd, payload_len, crc, payload_type (version), SERIES_MEMBER,
                                    hole_first (version), 1, version >= 3, display, &source,
                                    &changed, error);
  if (changed)
    return load_whole_file (path, display, error);
  if (payload == NULL)
    return NULL;
  self = parse_payload (payload, version, display, error);
  if (self == NULL)
    {
      mg_profile_source_free (source);
      return NULL;
    }
  self->source = source;
  mg_profile_source_attach (source, self->process_series, self->metrics->len);
  return self;
}

MgProfile *
mg_profile_load (const char *path, GError **error)
{
  g_autofree char *display = NULL;
  struct stat st;
  MgProfile *self;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  display = g_filename_display_name (path);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved = errno;

      if (fd >= 0)
        close (fd);
      open_error (error, display, saved);
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NOT_A_PROFILE,
                   _("“%s” is not a regular file, not a Metrograph profile."), display);
      return NULL;
    }
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      close (fd);
      return load_whole_file (path, display, error);
    }
  self = load_in_place (fd, (gsize) st.st_size, path, display, error);
  close (fd);
  return self;
}
