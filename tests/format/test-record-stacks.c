/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The record's call-stack table (format/mg-record-stacks.h): identical
 * stacks stored once, counts moved into slots, halving that keeps every
 * count, a full table or slot counted, threads adding at once, and the
 * reader's check of a damaged section. */
#include <glib.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <string.h>

#include "format/mg-record-stacks.h"
#include "format/mg-record-writer.h"

typedef struct {
  char *dir;
  MgRecordWriter w;
} StacksFixture;

static void
stacks_fixture_setup (StacksFixture *f, gconstpointer data)
{
  guint max_stacks = GPOINTER_TO_UINT (data);
  char err[256];
  g_autoptr (GError) error = NULL;
  f->dir = g_dir_make_tmp ("mg-record-stacks-XXXXXX", &error);
  g_assert_no_error (error);
  int rc = mg_record_create_with_stacks (&f->w, f->dir, "h", "run", 7, 1000, 0, 1, 16, max_stacks,
                                         err, sizeof err);
  g_assert_cmpint (rc, ==, 0);
  /* Room only: laid out when reserved (on the sampler thread, once the
   * program has used CPU). */
  g_assert_null (f->w.stacks);
  g_assert_cmpint (mg_record_stacks_reserve (&f->w, err, sizeof err), ==, 0);
  g_assert_nonnull (f->w.stacks);
  g_assert_cmpuint (f->w.stacks->max_stacks, ==, max_stacks);
}

static void
stacks_fixture_teardown (StacksFixture *f, gconstpointer data)
{
  g_unlink (f->w.path);
  mg_record_forget (&f->w);
  g_rmdir (f->dir);
  g_free (f->dir);
}

/* A slot of the record committed with the pending counts. */
static void
commit_slot (StacksFixture *f, int64_t end_ns)
{
  MgRecordHeader *h = f->w.header;
  if (h->n_samples >= h->capacity)
    mg_record_merge (&f->w);
  uint32_t n = h->n_samples;
  MgRecordSample *s = mg_record_slot (&f->w, n);
  s->t_start_ns = n ? mg_record_slot (&f->w, n - 1)->t_end_ns : 0;
  s->t_end_ns = end_ns;
  s->n_raw = 1;
  mg_record_stacks_drain (f->w.stacks, n);
  mg_record_commit (&f->w);
}

/* Sum of every slot's counts and lost samples. */
static guint64
slot_total (StacksFixture *f, guint64 *lost)
{
  guint64 total = 0;
  *lost = 0;
  for (uint32_t i = 0; i < f->w.header->n_samples; i++)
    {
      MgRecordStackSlot *slot = mg_record_stacks_slot (f->w.stacks, i);
      const MgRecordStackCount *p = mg_record_stacks_slot_pairs (slot);
      for (uint32_t k = 0; k < slot->n_pairs; k++)
        total += p[k].count;
      *lost += slot->n_lost;
    }
  return total;
}

static void
test_once_and_counted (StacksFixture *f, gconstpointer data)
{
  uint64_t s1[] = { 0x1000, 0x2000, 0x3000 };
  uint64_t s2[] = { 0x1004, 0x2000, 0x3000 };
  MgRecordStacks *t = f->w.stacks;

  for (int i = 0; i < 3; i++)
    g_assert_true (mg_record_stacks_add (t, s1, 3, 0));
  g_assert_true (mg_record_stacks_add (t, s2, 3, MG_RECORD_STACK_UNKNOWN));
  /* The same frames with another ending are another stack. */
  g_assert_true (mg_record_stacks_add (t, s2, 3, 0));
  g_assert_cmpuint (t->n_stacks, ==, 3);
  g_assert_cmpuint (t->pool_used, ==, 9);
  g_assert_cmpuint (t->n_taken, ==, 5);
  commit_slot (f, 10);

  MgRecordStackSlot *slot = mg_record_stacks_slot (t, 0);
  const MgRecordStackCount *p = mg_record_stacks_slot_pairs (slot);
  g_assert_cmpuint (slot->n_pairs, ==, 3);
  g_assert_cmpuint (p[0].stack, ==, 0);
  g_assert_cmpuint (p[0].count, ==, 3);
  g_assert_cmpuint (p[1].count, ==, 1);
  const MgRecordStack *e = &mg_record_stacks_entries (t)[1];
  g_assert_cmpuint (e->n_frames, ==, 3);
  g_assert_cmpuint (e->flags, ==, MG_RECORD_STACK_UNKNOWN | MG_RECORD_STACK_READY);
  g_assert_cmpuint (mg_record_stacks_pool (t)[e->frame_offset], ==, 0x1004);
  /* Drained: the next slot starts from nothing. */
  commit_slot (f, 20);
  g_assert_cmpuint (mg_record_stacks_slot (t, 1)->n_pairs, ==, 0);
  g_assert_true (mg_record_stacks_check (t, f->w.size - mg_record_sections_offset (f->w.header),
                                         f->w.header));
}

/* 40 slots (capacity 16: halved three times) of known counts: every count is
 * still there after the halvings, in the slot that covers its time. */
static void
test_halving_keeps_counts (StacksFixture *f, gconstpointer data)
{
  uint64_t frames[2][2] = { { 0xa0, 0xb0 }, { 0xa8, 0xb0 } };
  guint64 added = 0;
  for (int slot = 0; slot < 40; slot++)
    {
      for (int k = 0; k < slot % 5 + 1; k++, added++)
        mg_record_stacks_add (f->w.stacks, frames[k % 2], 2, 0);
      commit_slot (f, (slot + 1) * 10);
    }
  g_assert_cmpuint (f->w.header->n_merges, ==, 3);
  guint64 lost;
  g_assert_cmpuint (slot_total (f, &lost), ==, added);
  g_assert_cmpuint (lost, ==, 0);
  g_assert_cmpuint (f->w.stacks->n_taken, ==, added);
  /* The first slot now covers the first eight: 1 + 2 + 3 + 4 + 5 + 1 + 2 + 3
   * samples. */
  MgRecordStackSlot *first = mg_record_stacks_slot (f->w.stacks, 0);
  const MgRecordStackCount *p = mg_record_stacks_slot_pairs (first);
  g_assert_cmpuint (first->n_pairs, ==, 2);
  g_assert_cmpuint (p[0].count + p[1].count, ==, 21);
}

/* A table of two stacks: the third distinct stack is counted lost, never
 * stored; the known ones still count. */
static void
test_table_full (StacksFixture *f, gconstpointer data)
{
  MgRecordStacks *t = f->w.stacks;
  uint64_t s[3] = { 0x10, 0x20, 0x30 };
  g_assert_cmpuint (t->max_stacks, ==, 2);
  g_assert_true (mg_record_stacks_add (t, &s[0], 1, 0));
  g_assert_true (mg_record_stacks_add (t, &s[1], 1, 0));
  g_assert_false (mg_record_stacks_add (t, &s[2], 1, 0));
  g_assert_false (mg_record_stacks_add (t, &s[2], 1, 0));
  g_assert_true (mg_record_stacks_add (t, &s[0], 1, 0));
  g_assert_cmpuint (t->n_taken, ==, 5);
  g_assert_cmpuint (t->n_lost_table, ==, 2);
  commit_slot (f, 10);
  guint64 lost;
  g_assert_cmpuint (slot_total (f, &lost), ==, 3);
}

/* More distinct stacks in a window than a slot holds: the rest is the
 * slot's n_lost, and stays counted when slots merge. */
static void
test_slot_full (StacksFixture *f, gconstpointer data)
{
  MgRecordStacks *t = f->w.stacks;
  guint n = MG_RECORD_STACK_SLOT_PAIRS + 3;
  for (guint64 pc = 0; pc < n; pc++)
    mg_record_stacks_add (t, &pc, 1, 0);
  commit_slot (f, 10);
  MgRecordStackSlot *slot = mg_record_stacks_slot (t, 0);
  g_assert_cmpuint (slot->n_pairs, ==, MG_RECORD_STACK_SLOT_PAIRS);
  g_assert_cmpuint (slot->n_lost, ==, 3);
  g_assert_cmpuint (t->n_lost_slot, ==, 3);
  for (int i = 1; i < 17; i++)
    commit_slot (f, (i + 1) * 10);
  guint64 lost;
  guint64 total = slot_total (f, &lost);
  g_assert_cmpuint (total + lost, ==, n);
}

typedef struct {
  MgRecordStacks *t;
  int seed;
} Adder;

static void *
adder (void *data)
{
  Adder *a = data;
  for (int i = 0; i < 20000; i++)
    {
      uint64_t frames[2] = { (uint64_t) (i % 50), (uint64_t) a->seed % 2 };
      mg_record_stacks_add (a->t, frames, 2, 0);
    }
  return NULL;
}

/* Four threads adding at once: each distinct stack stored once (or
 * counted busy), no sample lost without being counted. */
static void
test_threads (StacksFixture *f, gconstpointer data)
{
  pthread_t th[4];
  Adder a[4];
  for (int i = 0; i < 4; i++)
    {
      a[i] = (Adder) { f->w.stacks, i };
      pthread_create (&th[i], NULL, adder, &a[i]);
    }
  for (int i = 0; i < 4; i++)
    pthread_join (th[i], NULL);
  MgRecordStacks *t = f->w.stacks;
  commit_slot (f, 10);
  guint64 lost;
  guint64 stored = slot_total (f, &lost);
  g_assert_cmpuint (t->n_taken, ==, 80000);
  g_assert_cmpuint (stored + t->n_lost_busy + t->n_lost_table + lost, ==, 80000);
  /* 100 distinct stacks; a race may store one twice, never more often. */
  g_assert_cmpuint (t->n_stacks, >=, 100);
  g_assert_cmpuint (t->n_stacks, <=, 200);
}

/* The reader refuses a section whose counters or pairs point outside. */
static void
test_check_damaged (StacksFixture *f, gconstpointer data)
{
  MgRecordStacks *t = f->w.stacks;
  uint64_t size = f->w.size - mg_record_sections_offset (f->w.header);
  uint64_t s[1] = { 0x10 };
  mg_record_stacks_add (t, s, 1, 0);
  commit_slot (f, 10);
  g_assert_true (mg_record_stacks_check (t, size, f->w.header));
  g_assert_false (mg_record_stacks_check (t, size - 8, f->w.header));
  t->n_stacks = t->max_stacks + 1;
  g_assert_false (mg_record_stacks_check (t, size, f->w.header));
  t->n_stacks = 1;
  mg_record_stacks_slot_pairs (mg_record_stacks_slot (t, 0))[0].stack = 5;
  g_assert_false (mg_record_stacks_check (t, size, f->w.header));
  mg_record_stacks_slot_pairs (mg_record_stacks_slot (t, 0))[0].stack = 0;
  mg_record_stacks_entries (t)[0].frame_offset = t->pool_frames;
  g_assert_false (mg_record_stacks_check (t, size, f->w.header));
}

/* The bound docs/record-format.md states for the defaults. */
static void
test_documented_size (void)
{
  g_assert_cmpuint (mg_record_stacks_layout (NULL, MG_RECORD_STACKS_DEFAULT_MAX, 4096), ==,
                    1284264);
}

/* A sample of weight 3 (a timer's two overruns) counts 3 in the taken
 * samples and in its slot; weight 0 counts nothing. */
static void
test_weighted (StacksFixture *f, gconstpointer data)
{
  MgRecordStacks *t = f->w.stacks;
  uint64_t pcs[1] = { 0x3030 };
  g_assert_true (mg_record_stacks_add_weighted (t, pcs, 1, 0, 3));
  g_assert_true (mg_record_stacks_add (t, pcs, 1, 0));
  g_assert_true (mg_record_stacks_add_weighted (t, pcs, 1, 0, 0));
  commit_slot (f, 10);
  guint64 lost;
  g_assert_cmpuint (slot_total (f, &lost), ==, 4);
  g_assert_cmpuint (t->n_taken, ==, 4);
  g_assert_cmpuint (t->n_stacks, ==, 1);
}

/* Version 2: the same frames in two threads are two stacks, each naming
 * its thread's ordinal; the threads table names them; a section of
 * version 0 (a record from before: no table, its size ending at the
 * slots) still passes the check, its stacks of no known thread. */
static void
test_thread_ordinals (StacksFixture *f, gconstpointer data)
{
  MgRecordStacks *t = f->w.stacks;
  uint64_t size = f->w.size - mg_record_sections_offset (f->w.header);
  uint64_t pcs[2] = { 0x1010, 0x2020 };
  g_assert_cmpuint (t->version, ==, MG_RECORD_STACKS_VERSION);
  g_assert_true (mg_record_stacks_add (t, pcs, 2, mg_record_stack_thread_flags (0)));
  g_assert_true (mg_record_stacks_add (t, pcs, 2, mg_record_stack_thread_flags (3)));
  g_assert_true (mg_record_stacks_add (t, pcs, 2, mg_record_stack_thread_flags (3)));
  g_assert_cmpuint (t->n_stacks, ==, 2);
  const MgRecordStack *e = mg_record_stacks_entries (t);
  g_assert_cmpint (mg_record_stack_thread (e[0].flags), ==, 0);
  g_assert_cmpint (mg_record_stack_thread (e[1].flags), ==, 3);
  g_assert_cmpint (mg_record_stack_thread (0), ==, -1);
  /* Clamped: the last ordinal stands for all the later ones. */
  g_assert_cmpint (mg_record_stack_thread (mg_record_stack_thread_flags (100000)), ==,
                   MG_RECORD_STACK_THREAD_MAX - 1);

  g_assert_true (mg_record_stacks_name_thread (t, 4242, 3, "a-worker-with-a-long-name"));
  g_assert_cmpuint (t->n_thread_names, ==, 1);
  const MgRecordThread *named = mg_record_stacks_threads (t);
  g_assert_nonnull (named);
  if (named == NULL)
    return;
  g_assert_cmpint (named[0].tid, ==, 4242);
  g_assert_cmpuint (named[0].ordinal, ==, 3);
  g_assert_cmpstr (named[0].name, ==, "a-worker-with-a");
  /* Renamed: the entry of that thread and ordinal takes the new name;
   * another thread's id or ordinal changes nothing. */
  mg_record_stacks_rename_thread (t, 4242, 3, "beta\xff");
  mg_record_stacks_rename_thread (t, 4243, 3, "other");
  mg_record_stacks_rename_thread (t, 4242, 2, "other");
  g_assert_cmpuint (t->n_thread_names, ==, 1);
  g_assert_cmpstr (named[0].name, ==, "beta\xff");
  commit_slot (f, 10);
  g_assert_true (mg_record_stacks_check (t, size, f->w.header));

  /* As a record of version 0 would be: shorter, no table. */
  MgRecordStacks old = *t;
  t->version = 0;
  t->max_threads = 0;
  t->threads_offset = 0;
  t->n_thread_names = 0;
  g_assert_null (mg_record_stacks_threads (t));
  g_assert_false (mg_record_stacks_check (t, size, f->w.header));
  g_assert_true (mg_record_stacks_check (t, old.threads_offset, f->w.header));
  *t = old;
  t->n_thread_names = t->max_threads + 1;
  g_assert_false (mg_record_stacks_check (t, size, f->w.header));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/record-stacks/documented-size", test_documented_size);
#define ADD(path, fn, max) \
  g_test_add (path, StacksFixture, GUINT_TO_POINTER (max), stacks_fixture_setup, fn, \
              stacks_fixture_teardown)
  ADD ("/record-stacks/once-and-counted", test_once_and_counted, 64);
  ADD ("/record-stacks/halving-keeps-counts", test_halving_keeps_counts, 64);
  ADD ("/record-stacks/table-full", test_table_full, 2);
  ADD ("/record-stacks/slot-full", test_slot_full, 64);
  ADD ("/record-stacks/threads", test_threads, 4096);
  ADD ("/record-stacks/check-damaged", test_check_damaged, 8);
  ADD ("/record-stacks/thread-ordinals", test_thread_ordinals, 8);
  ADD ("/record-stacks/weighted", test_weighted, 8);
  return g_test_run ();
}
