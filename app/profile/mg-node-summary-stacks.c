/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A process's call stacks in a node summary (docs/node-summary.md,
 * "Stacks", version 2): the record's stack section reduced to what the
 * merge reads (its ready stacks, numbered densely in their order, their
 * frames, the modules, each committed slot's pairs and the counters),
 * one GVariant packed with zlib behind a CRC-32 and its unpacked length.
 * Read back, it is laid out again as a record's section, so that the
 * merge takes the process's stacks as it takes a record's. */
#include "mg-config.h"

#include <string.h>
#include <zlib.h>

#include <glib/gi18n.h>

#include "mg-crc32.h"
#include "mg-node-summary-internal.h"

/* CRC-32 of what follows, the unpacked length, then the zlib stream. */
#define STACKS_HEAD_LEN 12
/* zlib packs at most about 1000 to 1: a damaged length cannot make the
 * reader allocate without bound. */
#define MAX_RATIO 1032

static GVariant *
module_to_variant (const MgRecordModule *m)
{
  return g_variant_new ("(ttt@ay@ay)", (guint64) m->start, (guint64) m->end,
                        (guint64) m->load_bias,
                        g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, m->build_id,
                                                   m->build_id_len, 1),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, m->path,
                                                   strnlen (m->path, sizeof m->path), 1));
}

/* The section as the index's stacks type; dense[] maps record ids to the
 * ready stacks' order. */
static GVariant *
stacks_to_variant (const MgRecordFile *r)
{
  MgRecordStacks *s = r->stacks;
  const MgRecordStack *entries = mg_record_stacks_entries (s);
  const guint64 *pool = mg_record_stacks_pool (s);
  g_autofree guint32 *dense = g_new (guint32, MAX (s->n_stacks, 1));
  GVariantBuilder modules, stacks;
  guint32 n_ready = 0;

  g_variant_builder_init (&modules, G_VARIANT_TYPE ("a(tttayay)"));
  for (guint i = 0; i < s->n_modules; i++)
    g_variant_builder_add_value (&modules, module_to_variant (&mg_record_stacks_modules (s)[i]));
  g_variant_builder_init (&stacks, G_VARIANT_TYPE ("a(qat)"));
  for (guint id = 0; id < s->n_stacks; id++)
    {
      const MgRecordStack *e = &entries[id];

      /* A stack never finished is left out, as the merge leaves it. */
      dense[id] = G_MAXUINT32;
      if (!(e->flags & MG_RECORD_STACK_READY))
        continue;
      dense[id] = n_ready++;
      g_variant_builder_add (&stacks, "(q@at)", (guint16) (e->flags & ~MG_RECORD_STACK_READY),
                             g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64,
                                                        pool + e->frame_offset, e->n_frames,
                                                        sizeof (guint64)));
    }
  /* The slots as three flat arrays, read back in place: a 1024-rank run
   * has millions of slots. */
  g_autoptr (GArray) lost = g_array_sized_new (FALSE, FALSE, sizeof (guint32), r->n_samples);
  g_autoptr (GArray) n_pairs = g_array_sized_new (FALSE, FALSE, sizeof (guint32), r->n_samples);
  g_autoptr (GArray) pairs = g_array_new (FALSE, FALSE, sizeof (MgRecordStackCount));
  for (guint k = 0; k < r->n_samples; k++)
    {
      MgRecordStackSlot *slot = mg_record_stacks_slot (s, r->first + k);
      const MgRecordStackCount *p = mg_record_stacks_slot_pairs (slot);

      g_array_append_val (lost, slot->n_lost);
      g_array_append_val (n_pairs, slot->n_pairs);
      for (guint i = 0; i < slot->n_pairs; i++)
        {
          MgRecordStackCount c = { dense[p[i].stack], p[i].count };
          g_array_append_val (pairs, c);
        }
    }
  GVariantBuilder threads;
  g_variant_builder_init (&threads, G_VARIANT_TYPE ("a(iuay)"));
  const MgRecordThread *named = mg_record_stacks_threads (s);
  for (guint i = 0; named != NULL && i < s->n_thread_names; i++)
    g_variant_builder_add (&threads, "(iu@ay)", named[i].tid, named[i].ordinal,
                           g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, named[i].name,
                                                      strnlen (named[i].name,
                                                               sizeof named[i].name - 1), 1));
  return g_variant_new ("(uittttt@a(tttayay)@a(qat)@au@au@a(uu)@a(iuay))", s->state, s->signal,
                        (guint64) s->n_taken, (guint64) s->n_lost_table,
                        (guint64) s->n_lost_busy, (guint64) s->n_lost_slot,
                        (guint64) s->n_threads, g_variant_builder_end (&modules),
                        g_variant_builder_end (&stacks),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, lost->data, lost->len,
                                                   sizeof (guint32)),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, n_pairs->data,
                                                   n_pairs->len, sizeof (guint32)),
                        g_variant_new_fixed_array (G_VARIANT_TYPE ("(uu)"), pairs->data,
                                                   pairs->len, sizeof (MgRecordStackCount)),
                        g_variant_builder_end (&threads));
}

GBytes *
mg_node_stacks_encode (const MgRecordFile *r)
{
  if (r->stacks == NULL)
    return g_bytes_new (NULL, 0);

  g_autoptr (GVariant) v = g_variant_ref_sink (stacks_to_variant (r));
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (v);
      g_variant_unref (v);
      v = swapped;
    }
  gsize raw_len = g_variant_get_size (v);
  g_autofree guint8 *raw = g_malloc (MAX (raw_len, 1));
  g_variant_store (v, raw);
  uLongf packed_len = compressBound (raw_len);
  guint8 *out = g_malloc (STACKS_HEAD_LEN + packed_len);
  /* Stacks of one process repeat their outer frames: packed hard. */
  int z = compress2 (out + STACKS_HEAD_LEN, &packed_len, raw, raw_len, Z_BEST_COMPRESSION);
  g_assert (z == Z_OK);
  /* The top bit: the type with the threads' names. */
  guint64 len_le = GUINT64_TO_LE ((guint64) raw_len | MG_NODE_STACKS_NAMED);
  memcpy (out + 4, &len_le, 8);
  guint32 crc = GUINT32_TO_LE (mg_crc32_update (0, out + 4, 8 + packed_len));
  memcpy (out, &crc, 4);
  return g_bytes_new_take (out, STACKS_HEAD_LEN + packed_len);
}

gboolean
mg_node_stacks_check (const guint8 *data, gsize size)
{
  guint32 crc;

  if (size == 0)
    return TRUE;
  if (size < STACKS_HEAD_LEN)
    return FALSE;
  memcpy (&crc, data, 4);
  return mg_crc32_update (0, data + 4, size - 4) == GUINT32_FROM_LE (crc);
}

/* The unpacked, checked GVariant, or NULL. */
static GVariant *
unpack (const guint8 *data, gsize size)
{
  guint64 raw_len;

  if (!mg_node_stacks_check (data, size) || size == 0)
    return NULL;
  memcpy (&raw_len, data + 4, 8);
  raw_len = GUINT64_FROM_LE (raw_len);
  const GVariantType *type = G_VARIANT_TYPE ((raw_len & MG_NODE_STACKS_NAMED)
                                             ? MG_NODE_STACKS_THREADS_TYPE : MG_NODE_STACKS_TYPE);
  raw_len &= ~MG_NODE_STACKS_NAMED;
  if (raw_len / MAX_RATIO > size || raw_len > G_MAXUINT32)
    return NULL;
  guint8 *raw = g_malloc (MAX (raw_len, 1));
  uLongf got = raw_len;
  if (uncompress (raw, &got, data + STACKS_HEAD_LEN, size - STACKS_HEAD_LEN) != Z_OK
      || got != raw_len)
    {
      g_free (raw);
      return NULL;
    }
  g_autoptr (GBytes) bytes = g_bytes_new_take (raw, raw_len);
  GVariant *v = g_variant_ref_sink (
    g_variant_new_from_bytes (type, bytes, FALSE));
  if (!g_variant_is_normal_form (v))
    {
      g_variant_unref (v);
      return NULL;
    }
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (v);
      g_variant_unref (v);
      v = swapped;
    }
  return v;
}

/* The modules into the section; FALSE when one cannot be a record's. */
static gboolean
fill_modules (MgRecordStacks *s, GVariant *modules)
{
  gsize n = g_variant_n_children (modules);

  if (n > s->max_modules)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr (GVariant) id = NULL, path = NULL;
      MgRecordModule *m = &mg_record_stacks_modules (s)[i];
      guint64 start, end, bias;
      gsize id_len, path_len;

      g_variant_get_child (modules, i, "(ttt@ay@ay)", &start, &end, &bias, &id, &path);
      const guint8 *id_data = g_variant_get_fixed_array (id, &id_len, 1);
      const char *path_data = g_variant_get_fixed_array (path, &path_len, 1);
      if (id_len > sizeof m->build_id || path_len >= sizeof m->path)
        return FALSE;
      m->start = start;
      m->end = end;
      m->load_bias = bias;
      m->build_id_len = (guint8) id_len;
      if (id_len > 0)
        memcpy (m->build_id, id_data, id_len);
      if (path_len > 0)
        memcpy (m->path, path_data, path_len);
    }
  s->n_modules = (guint32) n;
  return TRUE;
}

static void
fill_stacks (MgRecordStacks *s, GVariant *stacks)
{
  MgRecordStack *entries = mg_record_stacks_entries (s);
  guint64 *pool = mg_record_stacks_pool (s);
  guint32 used = 0;

  for (gsize id = 0; id < g_variant_n_children (stacks); id++)
    {
      g_autoptr (GVariant) frames = NULL;
      guint16 flags;
      gsize n;

      g_variant_get_child (stacks, id, "(q@at)", &flags, &frames);
      const guint64 *pcs = g_variant_get_fixed_array (frames, &n, sizeof (guint64));
      entries[id] = (MgRecordStack) { 0, used, (guint16) n, flags | MG_RECORD_STACK_READY };
      if (n > 0)
        memcpy (pool + used, pcs, n * sizeof (guint64));
      used += (guint32) n;
    }
  s->n_stacks = (guint32) g_variant_n_children (stacks);
  s->pool_used = used;
}

/* The threads table; FALSE when it holds more than a record's or a name
 * longer than a comm. */
static gboolean
fill_threads (MgRecordStacks *s, GVariant *names)
{
  gsize n = g_variant_n_children (names);
  MgRecordThread *threads = mg_record_stacks_threads (s);

  if (n > s->max_threads)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr (GVariant) name = NULL;
      gsize len;

      g_variant_get_child (names, i, "(iu@ay)", &threads[i].tid, &threads[i].ordinal, &name);
      const char *bytes = g_variant_get_fixed_array (name, &len, 1);
      if (len >= sizeof threads[i].name)
        return FALSE;
      if (len > 0)
        memcpy (threads[i].name, bytes, len);
    }
  s->n_thread_names = (guint32) n;
  return TRUE;
}

/* Each slot's pairs; FALSE when there are not as many slots as samples,
 * a slot holds more pairs than a record's can, or the pairs do not add
 * up to the slots'. */
static gboolean
fill_slots (MgRecordStacks *s, GVariant *lost_v, GVariant *n_pairs_v, GVariant *pairs_v,
            guint n_samples)
{
  gsize n_lost, n_counts, n_pairs;
  const guint32 *lost = g_variant_get_fixed_array (lost_v, &n_lost, sizeof (guint32));
  const guint32 *counts = g_variant_get_fixed_array (n_pairs_v, &n_counts, sizeof (guint32));
  const MgRecordStackCount *pairs =
    g_variant_get_fixed_array (pairs_v, &n_pairs, sizeof (MgRecordStackCount));
  gsize at = 0;

  if (n_lost != n_samples || n_counts != n_samples)
    return FALSE;
  for (guint k = 0; k < n_samples; k++)
    {
      MgRecordStackSlot *slot = mg_record_stacks_slot (s, k);

      if (counts[k] > s->slot_pairs || counts[k] > n_pairs - at)
        return FALSE;
      slot->n_lost = lost[k];
      slot->n_pairs = counts[k];
      if (counts[k] > 0)
        memcpy (mg_record_stacks_slot_pairs (slot), pairs + at,
                counts[k] * sizeof (MgRecordStackCount));
      at += counts[k];
    }
  return at == n_pairs;
}

/* The section's size for these stacks: room for every stack and its
 * frames in a record's layout; 0 when a stack is longer than a record's. */
static guint32
max_stacks_for (GVariant *stacks)
{
  guint64 n = g_variant_n_children (stacks), frames = 0;

  for (gsize i = 0; i < n; i++)
    {
      g_autoptr (GVariant) stack = g_variant_get_child_value (stacks, i);
      g_autoptr (GVariant) f = g_variant_get_child_value (stack, 1);
      if (g_variant_n_children (f) > MG_RECORD_STACK_MAX_FRAMES)
        return 0;
      frames += g_variant_n_children (f);
    }
  guint64 want = MAX (MAX (n, 1), (frames + MG_RECORD_STACK_FRAMES_AVG - 1)
                                    / MG_RECORD_STACK_FRAMES_AVG);
  return want > MG_RECORD_STACKS_LIMIT ? 0 : (guint32) want;
}

gboolean
mg_node_stacks_decode (const guint8 *data, gsize size, MgRecordFile *r, const char *path,
                       guint i, GError **error)
{
  if (size == 0)
    return TRUE;

  g_autoptr (GVariant) v = unpack (data, size);
  g_autoptr (GVariant) modules = NULL, stacks = NULL, lost = NULL, n_pairs = NULL, pairs = NULL;
  g_autoptr (GVariant) names = NULL;
  guint32 state, max_stacks = 0;
  gint32 signal;
  guint64 taken, lost_table, lost_busy, lost_slot, threads;
  MgRecordStacks layout;
  gboolean ok = FALSE;

  if (v != NULL)
    {
      /* Either type: the same first twelve members. */
      g_variant_get_child (v, 0, "u", &state);
      g_variant_get_child (v, 1, "i", &signal);
      g_variant_get_child (v, 2, "t", &taken);
      g_variant_get_child (v, 3, "t", &lost_table);
      g_variant_get_child (v, 4, "t", &lost_busy);
      g_variant_get_child (v, 5, "t", &lost_slot);
      g_variant_get_child (v, 6, "t", &threads);
      modules = g_variant_get_child_value (v, 7);
      stacks = g_variant_get_child_value (v, 8);
      lost = g_variant_get_child_value (v, 9);
      n_pairs = g_variant_get_child_value (v, 10);
      pairs = g_variant_get_child_value (v, 11);
      if (g_variant_n_children (v) > 12)
        names = g_variant_get_child_value (v, 12);
      max_stacks = max_stacks_for (stacks);
    }
  if (max_stacks > 0)
    {
      guint64 section_size = mg_record_stacks_layout (&layout, max_stacks, r->header.capacity);
      MgRecordStacks *s = g_malloc0 (section_size);

      *s = layout;
      s->state = state;
      s->signal = signal;
      s->n_taken = taken;
      s->n_lost_table = lost_table;
      s->n_lost_busy = lost_busy;
      s->n_lost_slot = lost_slot;
      s->n_threads = threads;
      fill_stacks (s, stacks);
      ok = fill_modules (s, modules) && fill_slots (s, lost, n_pairs, pairs, r->n_samples)
           && (names == NULL || fill_threads (s, names))
           && mg_record_stacks_check (s, section_size, &r->header);
      if (ok)
        r->stacks = s;
      else
        g_free (s);
    }
  if (!ok)
    return mg_node_damaged (error, path,
                            _("the call stacks of process %u (pid %d) do not match their CRC "
                              "or their counts (changed on disk?)"),
                            i + 1, r->header.pid);
  return TRUE;
}
