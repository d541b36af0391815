/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Member 15 as format 7 stores it: the run's distinct stacks once, and per
 * process which of them it has, its windows and counts as varints, deflated
 * (a 1024-rank run repeats most stacks in every rank, and its windows and
 * counts of one are nearly all alike). */
#include "mg-config.h"

#include <math.h>
#include <string.h>
#include <zlib.h>

#include "mg-profile-layout.h"
#include "mg-stack-pack.h"
#include "mg-stack-set.h"

/* As the member's (uuu) counts are laid out in memory. */
typedef struct {
  guint32 window, stack, count;
} CountRow;

G_STATIC_ASSERT (sizeof (CountRow) == 12);

enum {
  HEAD_LEN = 4,          /* the unpacked length, little-endian, before the deflated bytes */
  TIMES_NS = 0,          /* windows as whole nanoseconds, deltas */
  TIMES_DOUBLE = 1,      /* windows as the doubles' bits (a time nanoseconds do not give back) */
  MAX_RATIO = 1100,      /* deflate packs at most about 1032 to 1 */
};

/* Within 2^62 ns of the run's start, like every window a profile takes. */
#define MAX_NS_S 4.6e9

/* ---- varints ---- */

static void
put_varint (GByteArray *out, guint64 v)
{
  guint8 b[10];
  guint n = 0;
  do
    {
      b[n] = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);
      v >>= 7;
      n++;
    }
  while (v != 0);
  g_byte_array_append (out, b, n);
}

static guint64
zigzag (gint64 v)
{
  return ((guint64) v << 1) ^ (guint64) (v >> 63);
}

static gint64
unzigzag (guint64 v)
{
  return (gint64) (v >> 1) ^ -(gint64) (v & 1);
}

typedef struct {
  const guint8 *at, *end;
  gboolean bad;
} Reader;

static guint64
get_varint (Reader *r)
{
  guint64 v = 0;
  for (guint shift = 0; shift < 64; shift += 7)
    {
      if (r->at >= r->end)
        break;
      guint8 b = *r->at++;
      v |= (guint64) (b & 0x7f) << shift;
      if (!(b & 0x80))
        return v;
    }
  r->bad = TRUE;
  return 0;
}

/* ---- windows ---- */

/* The nanoseconds that give back x exactly, as the stack builder made it
 * ((double) ns / 1e9), or FALSE. */
static gboolean
whole_ns (double x, gint64 *ns)
{
  if (!(fabs (x) <= MAX_NS_S))
    return FALSE;
  *ns = llround (x * 1e9);
  double back = (double) *ns / 1e9;
  return memcmp (&back, &x, sizeof x) == 0;
}

static gboolean
all_whole_ns (const double *starts, const double *ends, gsize n)
{
  gint64 ns;
  for (gsize w = 0; w < n; w++)
    if (!whole_ns (starts[w], &ns) || !whole_ns (ends[w], &ns))
      return FALSE;
  return TRUE;
}

static void
put_windows (GByteArray *raw, const double *starts, const double *ends, gsize n)
{
  gboolean ns_mode = all_whole_ns (starts, ends, n);
  guint8 mode = ns_mode ? TIMES_NS : TIMES_DOUBLE;
  g_byte_array_append (raw, &mode, 1);
  guint64 prev = 0;
  for (gsize w = 0; w < n; w++)
    {
      if (ns_mode)
        {
          gint64 s = 0, e = 0;
          whole_ns (starts[w], &s);
          whole_ns (ends[w], &e);
          put_varint (raw, zigzag ((gint64) ((guint64) s - prev)));
          put_varint (raw, zigzag ((gint64) ((guint64) e - (guint64) s)));
          prev = (guint64) s;
        }
      else
        {
          guint64 bits[2];
          memcpy (&bits[0], &starts[w], 8);
          memcpy (&bits[1], &ends[w], 8);
          bits[0] = GUINT64_TO_LE (bits[0]);
          bits[1] = GUINT64_TO_LE (bits[1]);
          g_byte_array_append (raw, (const guint8 *) bits, sizeof bits);
        }
    }
}

static void
get_windows (Reader *r, double *starts, double *ends, gsize n)
{
  if (r->at >= r->end || *r->at > TIMES_DOUBLE)
    {
      r->bad = TRUE;
      return;
    }
  guint8 mode = *r->at++;
  guint64 prev = 0;
  for (gsize w = 0; w < n && !r->bad; w++)
    {
      if (mode == TIMES_NS)
        {
          guint64 s = prev + (guint64) unzigzag (get_varint (r));
          guint64 e = s + (guint64) unzigzag (get_varint (r));
          starts[w] = (double) (gint64) s / 1e9;
          ends[w] = (double) (gint64) e / 1e9;
          prev = s;
        }
      else
        {
          guint64 bits[2];
          if ((gsize) (r->end - r->at) < sizeof bits)
            {
              r->bad = TRUE;
              return;
            }
          memcpy (bits, r->at, sizeof bits);
          r->at += sizeof bits;
          bits[0] = GUINT64_FROM_LE (bits[0]);
          bits[1] = GUINT64_FROM_LE (bits[1]);
          memcpy (&starts[w], &bits[0], 8);
          memcpy (&ends[w], &bits[1], 8);
        }
    }
}

/* ---- a process's windows and counts ---- */

/* Its windows and counts: the unpacked length, then deflated: window
 * count, count count, the windows, then per count the window (delta from
 * the last one), the stack (the process's own index) and the count. */
static GVariant *
pack_process_counts (GVariant *starts_v, GVariant *ends_v, GVariant *counts_v)
{
  gsize n_windows, n_ends, n_counts;
  const double *starts = g_variant_get_fixed_array (starts_v, &n_windows, sizeof (double));
  const double *ends = g_variant_get_fixed_array (ends_v, &n_ends, sizeof (double));
  const CountRow *counts = g_variant_get_fixed_array (counts_v, &n_counts, sizeof (CountRow));
  if (n_windows == 0 && n_counts == 0)
    return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, NULL, 0, 1);

  n_windows = MIN (n_windows, n_ends);  /* equal in every profile read or built */
  g_autoptr (GByteArray) raw = g_byte_array_sized_new ((guint) (n_windows * 4 + n_counts * 4 + 16));
  put_varint (raw, n_windows);
  put_varint (raw, n_counts);
  put_windows (raw, starts, ends, n_windows);
  guint64 prev = 0;
  for (gsize i = 0; i < n_counts; i++)
    {
      put_varint (raw, zigzag ((gint64) ((guint64) counts[i].window - prev)));
      put_varint (raw, counts[i].stack);
      put_varint (raw, counts[i].count);
      prev = counts[i].window;
    }

  uLongf packed_len = compressBound (raw->len);
  guint8 *out = g_malloc (HEAD_LEN + packed_len);
  guint32 head = GUINT32_TO_LE (raw->len);
  memcpy (out, &head, HEAD_LEN);
  /* Regular windows and counts of one repeat the same few varints. */
  int z = compress2 (out + HEAD_LEN, &packed_len, raw->data, raw->len, Z_DEFAULT_COMPRESSION);
  g_assert (z == Z_OK);
  return g_variant_new_from_data (G_VARIANT_TYPE_BYTESTRING, out, HEAD_LEN + packed_len, TRUE,
                                  g_free, out);
}

/* The windows and counts one process's packed bytes hold, checked against
 * its n_stacks stacks; FALSE when damaged. */
static gboolean
unpack_process_counts (GVariant *packed, gsize n_stacks, GVariant **starts_v, GVariant **ends_v,
                       GVariant **counts_v)
{
  gsize len;
  const guint8 *data = g_variant_get_fixed_array (packed, &len, 1);
  if (len == 0)
    {
      *starts_v = g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, NULL, 0, sizeof (double));
      *ends_v = g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, NULL, 0, sizeof (double));
      *counts_v = g_variant_new_fixed_array (G_VARIANT_TYPE ("(uuu)"), NULL, 0, sizeof (CountRow));
      return TRUE;
    }
  guint32 raw_len;
  if (len <= HEAD_LEN)
    return FALSE;
  memcpy (&raw_len, data, HEAD_LEN);
  raw_len = GUINT32_FROM_LE (raw_len);
  /* No more than deflate could have packed into these bytes. */
  if (raw_len == 0 || raw_len / MAX_RATIO > len)
    return FALSE;
  g_autofree guint8 *raw = g_malloc (raw_len);
  uLongf got = raw_len;
  if (uncompress (raw, &got, data + HEAD_LEN, len - HEAD_LEN) != Z_OK || got != raw_len)
    return FALSE;

  Reader r = { raw, raw + raw_len, FALSE };
  guint64 n_windows = get_varint (&r), n_counts = get_varint (&r);
  /* Every window and count takes at least a byte. */
  if (r.bad || n_windows > raw_len || n_counts > raw_len)
    return FALSE;
  g_autofree double *starts = g_new (double, MAX (n_windows, 1));
  g_autofree double *ends = g_new (double, MAX (n_windows, 1));
  get_windows (&r, starts, ends, n_windows);
  g_autofree CountRow *counts = g_new (CountRow, MAX (n_counts, 1));
  guint64 prev = 0;
  for (guint64 i = 0; i < n_counts && !r.bad; i++)
    {
      guint64 w = prev + (guint64) unzigzag (get_varint (&r));
      guint64 stack = get_varint (&r), count = get_varint (&r);
      if (w >= n_windows || stack >= n_stacks || count > G_MAXUINT32)
        return FALSE;
      counts[i] = (CountRow) { (guint32) w, (guint32) stack, (guint32) count };
      prev = w;
    }
  if (r.bad || r.at != r.end)
    return FALSE;
  *starts_v = g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, starts, n_windows, sizeof (double));
  *ends_v = g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, ends, n_windows, sizeof (double));
  *counts_v = g_variant_new_fixed_array (G_VARIANT_TYPE ("(uuu)"), counts, n_counts,
                                         sizeof (CountRow));
  return TRUE;
}

/* ---- the member ---- */

typedef struct {
  GHashTable *index;  /* GBytes of a (a(ut)u) → table index + 1 */
  GVariantBuilder table;
  guint len;
} Table;

/* The run-wide index of a process's stack, added when new. */
static guint32
table_index (Table *t, GVariant *stack)
{
  GBytes *key = g_variant_get_data_as_bytes (stack);
  gpointer found = g_hash_table_lookup (t->index, key);
  if (found != NULL)
    {
      g_bytes_unref (key);
      return GPOINTER_TO_UINT (found) - 1;
    }
  g_autoptr (GVariant) frames = g_variant_get_child_value (stack, 0);
  guint32 flags;
  g_variant_get_child (stack, 1, "u", &flags);
  /* The last word is the stack's thread, for when stacks record one: 0. */
  g_variant_builder_add (&t->table, "(@a(ut)uu)", frames, flags, 0u);
  g_hash_table_insert (t->index, key, GUINT_TO_POINTER (++t->len));
  return t->len - 1;
}

/* A process's head, the same four members packed and unpacked: its
 * index, the samples taken and lost, and its table's state. */
typedef struct
{
  gint32 process;
  guint64 taken, lost;
  guint32 state;
} Head;

static Head
head_of (GVariant *proc)
{
  Head h;
  g_variant_get_child (proc, 0, "i", &h.process);
  g_variant_get_child (proc, 1, "t", &h.taken);
  g_variant_get_child (proc, 2, "t", &h.lost);
  g_variant_get_child (proc, 3, "u", &h.state);
  return h;
}

GVariant *
mg_stack_pack (GVariant *stacks)
{
  g_return_val_if_fail (g_variant_is_of_type (stacks, G_VARIANT_TYPE (MG_PAYLOAD_STACKS_TYPE)),
                        NULL);
  Table t = { g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                     (GDestroyNotify) g_bytes_unref, NULL) };
  g_variant_builder_init (&t.table, G_VARIANT_TYPE ("a" MG_STACK_PACKED_ENTRY_TYPE));
  GVariantBuilder procs;
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a" MG_STACK_PACKED_PROCESS_TYPE));
  g_autoptr (GVariant) modules = g_variant_get_child_value (stacks, 0);
  g_autoptr (GVariant) list = g_variant_get_child_value (stacks, 1);
  for (gsize i = 0; i < g_variant_n_children (list); i++)
    {
      g_autoptr (GVariant) proc = g_variant_get_child_value (list, i);
      g_autoptr (GVariant) own = g_variant_get_child_value (proc, 4);
      g_autoptr (GVariant) starts = g_variant_get_child_value (proc, 5);
      g_autoptr (GVariant) ends = g_variant_get_child_value (proc, 6);
      g_autoptr (GVariant) counts = g_variant_get_child_value (proc, 7);
      gsize n = g_variant_n_children (own);
      g_autofree guint32 *which = g_new (guint32, MAX (n, 1));
      for (gsize k = 0; k < n; k++)
        {
          g_autoptr (GVariant) s = g_variant_get_child_value (own, k);
          which[k] = table_index (&t, s);
        }
      Head h = head_of (proc);
      g_variant_builder_add (&procs, "(ittu@au@ay)", h.process, h.taken, h.lost, h.state,
                             g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, which, n,
                                                        sizeof (guint32)),
                             pack_process_counts (starts, ends, counts));
    }
  g_hash_table_unref (t.index);
  return g_variant_ref_sink (g_variant_new ("(@a(ayay)@a" MG_STACK_PACKED_ENTRY_TYPE
                                            "@a" MG_STACK_PACKED_PROCESS_TYPE ")",
                                            modules, g_variant_builder_end (&t.table),
                                            g_variant_builder_end (&procs)));
}

static void
clear_variant (gpointer v)
{
  if (v != NULL)
    g_variant_unref (v);
}

/* The frames of a table stack: each in a module of the n_modules, or
 * outside all. */
static gboolean
frames_ok (GVariant *frames, gsize n_modules)
{
  gsize n;
  const MgStackFrame *rows = g_variant_get_fixed_array (frames, &n, sizeof (MgStackFrame));
  for (gsize f = 0; f < n; f++)
    if (rows[f].module != MG_STACK_MODULE_UNKNOWN && rows[f].module >= n_modules)
      return FALSE;
  return TRUE;
}

/* Process proc's tuple as MG_PAYLOAD_STACKS_TYPE has it, each table stack
 * checked against the n_modules and made once into cache (n_table
 * entries, NULL until made); NULL when damaged. */
static GVariant *
unpack_process (GVariant *table, gsize n_modules, GVariant *proc, GPtrArray *cache)
{
  gsize n_table = g_variant_n_children (table);
  g_autoptr (GVariant) which_v = g_variant_get_child_value (proc, 4);
  g_autoptr (GVariant) blob = g_variant_get_child_value (proc, 5);
  gsize n;
  const guint32 *which = g_variant_get_fixed_array (which_v, &n, sizeof (guint32));
  GVariantBuilder own;
  g_variant_builder_init (&own, G_VARIANT_TYPE ("a(a(ut)u)"));
  for (gsize k = 0; k < n; k++)
    {
      if (which[k] >= n_table)
        {
          g_variant_builder_clear (&own);
          return NULL;
        }
      if (cache->pdata[which[k]] == NULL)
        {
          g_autoptr (GVariant) entry = g_variant_get_child_value (table, which[k]);
          g_autoptr (GVariant) frames = g_variant_get_child_value (entry, 0);
          guint32 flags;
          if (!frames_ok (frames, n_modules))
            {
              g_variant_builder_clear (&own);
              return NULL;
            }
          g_variant_get_child (entry, 1, "u", &flags);
          cache->pdata[which[k]] = g_variant_ref_sink (g_variant_new ("(@a(ut)u)", frames, flags));
        }
      g_variant_builder_add_value (&own, cache->pdata[which[k]]);
    }
  GVariant *starts, *ends, *counts;
  if (!unpack_process_counts (blob, n, &starts, &ends, &counts))
    {
      g_variant_builder_clear (&own);
      return NULL;
    }
  Head h = head_of (proc);
  return g_variant_new ("(ittu@a(a(ut)u)@ad@ad@a(uuu))", h.process, h.taken, h.lost, h.state,
                        g_variant_builder_end (&own), starts, ends, counts);
}

/* The member's processes whose index is process (-1: all), unpacked: an
 * a(ittua(a(ut)u)adada(uuu)), floating; NULL when one is damaged. */
static GVariant *
unpack_processes (GVariant *packed, int process)
{
  g_autoptr (GVariant) modules = g_variant_get_child_value (packed, 0);
  g_autoptr (GVariant) table = g_variant_get_child_value (packed, 1);
  g_autoptr (GVariant) list = g_variant_get_child_value (packed, 2);
  gsize n_table = g_variant_n_children (table), n_modules = g_variant_n_children (modules);

  /* Each table stack as a process's (a(ut)u), made when first used. */
  g_autoptr (GPtrArray) cache = g_ptr_array_new_full ((guint) n_table, clear_variant);
  g_ptr_array_set_size (cache, (guint) n_table);

  GVariantBuilder procs;
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  for (gsize i = 0; i < g_variant_n_children (list); i++)
    {
      g_autoptr (GVariant) proc = g_variant_get_child_value (list, i);
      gint32 index;
      g_variant_get_child (proc, 0, "i", &index);
      if (process >= 0 && index != process)
        continue;
      GVariant *one = unpack_process (table, n_modules, proc, cache);
      if (one == NULL)
        {
          g_variant_builder_clear (&procs);
          return NULL;
        }
      g_variant_builder_add_value (&procs, one);
    }
  return g_variant_builder_end (&procs);
}

GVariant *
mg_stack_unpack (GVariant *packed)
{
  g_return_val_if_fail (g_variant_is_of_type (packed,
                                              G_VARIANT_TYPE (MG_PAYLOAD_STACKS_PACKED_TYPE)),
                        NULL);
  g_autoptr (GVariant) modules = g_variant_get_child_value (packed, 0);
  GVariant *procs = unpack_processes (packed, -1);
  if (procs == NULL)
    return NULL;
  return g_variant_ref_sink (g_variant_new ("(@a(ayay)@a(ittua(a(ut)u)adada(uuu)))", modules,
                                            procs));
}

GVariant *
mg_stack_unpack_process (GVariant *packed, int process)
{
  g_return_val_if_fail (g_variant_is_of_type (packed,
                                              G_VARIANT_TYPE (MG_PAYLOAD_STACKS_PACKED_TYPE)),
                        NULL);
  GVariant *procs = unpack_processes (packed, process);
  return procs != NULL ? g_variant_ref_sink (procs) : NULL;
}

gboolean
mg_stack_packed_check (GVariant *packed, guint n_processes)
{
  g_return_val_if_fail (g_variant_is_of_type (packed,
                                              G_VARIANT_TYPE (MG_PAYLOAD_STACKS_PACKED_TYPE)),
                        FALSE);
  g_autoptr (GVariant) modules = g_variant_get_child_value (packed, 0);
  g_autoptr (GVariant) table = g_variant_get_child_value (packed, 1);
  g_autoptr (GVariant) list = g_variant_get_child_value (packed, 2);
  gsize n_table = g_variant_n_children (table);

  /* The table's frames are checked when a process that has them is
   * unpacked: reading 30 000 stacks' frames was a fifth of the open. */
  if (!mg_stack_set_check_modules (modules))
    return FALSE;
  for (gsize i = 0; i < g_variant_n_children (list); i++)
    {
      g_autoptr (GVariant) proc = g_variant_get_child_value (list, i);
      g_autoptr (GVariant) which_v = g_variant_get_child_value (proc, 4);
      gint32 process;
      gsize n;
      g_variant_get_child (proc, 0, "i", &process);
      if (process < 0 || (guint) process >= n_processes)
        return FALSE;
      const guint32 *which = g_variant_get_fixed_array (which_v, &n, sizeof (guint32));
      for (gsize k = 0; k < n; k++)
        if (which[k] >= n_table)
          return FALSE;
    }
  return TRUE;
}
