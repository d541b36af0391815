/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The code views' model (mg-call-tree.c) on hand-made stacks of known
 * counts: functions table, top-down and bottom-up trees, recursion,
 * inlined functions and the namer's cache. */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "plot/mg-activity-render.h"
#include "plot/mg-call-index.h"
#include "plot/mg-call-tree.h"
#include "plot/mg-code-export.h"
#include "plot/mg-flame-graph.h"
#include "profile/mg-profile-internal.h"
#include "stacks-fixture.h"

/* Addresses by function: 0x1xx main, 0x2xx a, 0x3xx b, 0x4xx c, 0x5xx
 * an inlined "inl" inside "d"; anything else unresolved. */
static guint
test_name (const MgStackModule *module, guint64 vaddr, MgFrameNameEntry *entries, guint max,
           gpointer user_data)
{
  static const char *const names[] = { NULL, "main", "a", "b", "c" };
  guint *calls = user_data;

  g_assert_null (module);
  g_assert_cmpuint (max, >=, 2);
  (*calls)++;
  if (vaddr >> 8 == 5)
    {
      entries[0] = (MgFrameNameEntry) { "inl", "/src/inl.h", 7 };
      entries[1] = (MgFrameNameEntry) { "d", "/src/d.c", 20 };
      return 2;
    }
  if (vaddr >> 8 >= 1 && vaddr >> 8 <= 4)
    {
      entries[0] = (MgFrameNameEntry) { names[vaddr >> 8], "/src/prog.c", (guint) (vaddr & 0xff) };
      return 1;
    }
  return 0;
}

static MgFrameNamer *
test_namer (guint *calls)
{
  return mg_frame_namer_new (test_name, calls, NULL);
}

static void
add_va (MgCallTree *tree, guint64 count, guint flags, guint n, va_list ap)
{
  MgStackFrame frames[16];

  for (guint i = 0; i < n; i++)
    frames[i] = (MgStackFrame) { .module = MG_STACK_MODULE_UNKNOWN, .vaddr = va_arg (ap, guint64) };
  if (flags == 0)
    mg_call_tree_add_stack (tree, NULL, frames, n, count);
  else
    mg_call_tree_add_stack_flags (tree, NULL, frames, n, count, flags);
}

static void
add (MgCallTree *tree, guint64 count, guint n, ...)
{
  va_list ap;

  va_start (ap, n);
  add_va (tree, count, 0, n, ap);
  va_end (ap);
}

/* A stack sampled while its thread waited in MPI. */
static void
add_waiting (MgCallTree *tree, guint64 count, guint n, ...)
{
  va_list ap;

  va_start (ap, n);
  add_va (tree, count, MG_STACK_MPI, n, ap);
  va_end (ap);
}

static void
check_function (MgCallTree *tree, const char *name, guint64 want_self, guint64 want_total)
{
  guint64 self, total;
  int row = mg_call_tree_find_function (tree, name);

  g_assert_cmpint (row, >=, 0);
  const MgCallFunction *f = mg_call_tree_get_function (tree, (guint) row, &self, &total);
  g_assert_cmpstr (f->name, ==, name);
  g_assert_cmpuint (self, ==, want_self);
  g_assert_cmpuint (total, ==, want_total);
}

static guint
check_node (MgCallTree *tree, MgCallTreeKind kind, guint parent, const char *name,
            guint64 want_self, guint64 want_total, guint want_children)
{
  guint64 self, total;
  guint node = mg_call_tree_find_child (tree, kind, parent, name);

  g_assert_cmpuint (node, !=, G_MAXUINT);
  mg_call_tree_get_node (tree, kind, node, &self, &total);
  g_assert_cmpuint (self, ==, want_self);
  g_assert_cmpuint (total, ==, want_total);
  g_assert_cmpuint (mg_call_tree_get_n_children (tree, kind, node), ==, want_children);
  return node;
}

/* main→a→c ×30, main→b→c ×10, main→a ×60: a 60 % self, 90 % total;
 * c 40 % self and total; main 100 % total. */
static MgCallTree *
three_paths (MgFrameNamer *namer)
{
  MgCallTree *tree = mg_call_tree_new_empty (namer);

  add (tree, 30, 3, (guint64) 0x410, (guint64) 0x221, (guint64) 0x131);
  add (tree, 10, 3, (guint64) 0x410, (guint64) 0x331, (guint64) 0x141);
  add (tree, 60, 2, (guint64) 0x205, (guint64) 0x121);
  mg_call_tree_finish (tree);
  return tree;
}

static void
test_functions_table (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = three_paths (namer);
  guint64 self, total;

  g_assert_cmpuint (mg_call_tree_get_total (tree), ==, 100);
  g_assert_cmpuint (mg_call_tree_get_n_functions (tree), ==, 4);
  check_function (tree, "main", 0, 100);
  check_function (tree, "a", 60, 90);
  check_function (tree, "b", 0, 10);
  check_function (tree, "c", 40, 40);
  /* Sorted by total: main, a, c, b. */
  g_assert_cmpstr (mg_call_tree_get_function (tree, 0, &self, &total)->name, ==, "main");
  g_assert_cmpstr (mg_call_tree_get_function (tree, 1, NULL, NULL)->name, ==, "a");
  g_assert_cmpstr (mg_call_tree_get_function (tree, 2, NULL, NULL)->name, ==, "c");
  g_assert_cmpstr (mg_call_tree_get_function (tree, 3, NULL, NULL)->name, ==, "b");
  /* The leaf is looked up as it is, return addresses one byte earlier:
   * c's line is its leaf address's, a's the first one named (0x221 - 1). */
  const MgCallFunction *c = mg_call_tree_get_function (tree, 2, NULL, NULL);
  g_assert_cmpstr (c->file, ==, "/src/prog.c");
  g_assert_cmpuint (c->line, ==, 0x10);
  g_assert_cmpuint (mg_call_tree_get_function (tree, 1, NULL, NULL)->line, ==, 0x20);
  g_assert_null (c->module);
  /* Eight frames, seven distinct lookups (0x410 twice), each named once. */
  g_assert_cmpuint (calls, ==, 7);
  g_assert_cmpuint (mg_frame_namer_get_n_named (namer), ==, 7);
}

/* Equal totals by the order of every list of functions
 * (mg-function-order.h), the report's too: callers first (most frames
 * below), then by name. main→b→c ×40, main→a→c ×40: main and c 80, a
 * and b 40; the table read c, main (c's self first), b, a (the namer's
 * ids). */
static void
test_functions_ties (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = mg_call_tree_new_empty (namer);
  const char *const order[] = { "main", "c", "a", "b" };

  add (tree, 40, 3, (guint64) 0x410, (guint64) 0x331, (guint64) 0x141);
  add (tree, 40, 3, (guint64) 0x410, (guint64) 0x221, (guint64) 0x131);
  mg_call_tree_finish (tree);
  g_assert_cmpuint (mg_call_tree_get_n_functions (tree), ==, G_N_ELEMENTS (order));
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    g_assert_cmpstr (mg_call_tree_get_function (tree, i, NULL, NULL)->name, ==, order[i]);
  check_function (tree, "c", 80, 80);
  check_function (tree, "main", 0, 80);
}

static void
test_top_down (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = three_paths (namer);
  guint64 self, total;
  const MgCallTreeKind k = MG_CALL_TREE_TOP_DOWN;

  mg_call_tree_get_node (tree, k, MG_CALL_TREE_ROOT, &self, &total);
  g_assert_cmpuint (total, ==, 100);
  g_assert_cmpuint (mg_call_tree_get_n_children (tree, k, MG_CALL_TREE_ROOT), ==, 1);
  guint main_node = check_node (tree, k, MG_CALL_TREE_ROOT, "main", 0, 100, 2);
  guint a = check_node (tree, k, main_node, "a", 60, 90, 1);
  guint b = check_node (tree, k, main_node, "b", 0, 10, 1);
  check_node (tree, k, a, "c", 30, 30, 0);
  check_node (tree, k, b, "c", 10, 10, 0);
  /* Children by total: a before b. */
  g_assert_cmpuint (mg_call_tree_get_child (tree, k, main_node, 0), ==, a);
  g_assert_cmpuint (mg_call_tree_get_child (tree, k, main_node, 1), ==, b);
}

static void
test_bottom_up (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = three_paths (namer);
  const MgCallTreeKind k = MG_CALL_TREE_BOTTOM_UP;

  /* The first level: where samples landed, with their self counts. */
  g_assert_cmpuint (mg_call_tree_get_n_children (tree, k, MG_CALL_TREE_ROOT), ==, 2);
  guint a = check_node (tree, k, MG_CALL_TREE_ROOT, "a", 60, 60, 1);
  guint c = check_node (tree, k, MG_CALL_TREE_ROOT, "c", 40, 40, 2);
  g_assert_cmpuint (mg_call_tree_get_child (tree, k, MG_CALL_TREE_ROOT, 0), ==, a);
  check_node (tree, k, a, "main", 0, 60, 0);
  guint ca = check_node (tree, k, c, "a", 0, 30, 1);
  guint cb = check_node (tree, k, c, "b", 0, 10, 1);
  check_node (tree, k, ca, "main", 0, 30, 0);
  check_node (tree, k, cb, "main", 0, 10, 0);
}

/* main→a→a→a ×20 and main→a ×5: a's total is 25, not 65; the top-down
 * tree keeps each level of the recursion. */
static void
test_recursion (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = mg_call_tree_new_empty (namer);
  const MgCallTreeKind k = MG_CALL_TREE_TOP_DOWN;

  add (tree, 20, 4, (guint64) 0x200, (guint64) 0x231, (guint64) 0x231, (guint64) 0x111);
  add (tree, 5, 2, (guint64) 0x201, (guint64) 0x111);
  mg_call_tree_finish (tree);
  check_function (tree, "a", 25, 25);
  check_function (tree, "main", 0, 25);
  guint main_node = check_node (tree, k, MG_CALL_TREE_ROOT, "main", 0, 25, 1);
  guint a1 = check_node (tree, k, main_node, "a", 5, 25, 1);
  guint a2 = check_node (tree, k, a1, "a", 0, 20, 1);
  check_node (tree, k, a2, "a", 20, 20, 0);
}

/* A search for b: 10 of the 100 samples; top down, the root and main
 * lead to it (a does not); bottom up, c leads to it (c's caller b). */
static void
test_matches (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = three_paths (namer);
  guint n = mg_frame_namer_get_n_functions (namer);
  g_autofree guint8 *found = g_new0 (guint8, n);
  const MgCallTreeKind down = MG_CALL_TREE_TOP_DOWN, up = MG_CALL_TREE_BOTTOM_UP;

  for (guint id = 0; id < n; id++)
    found[id] = g_str_equal (mg_frame_namer_get_function (namer, id)->name, "b");
  g_assert_cmpuint (mg_call_tree_count_matching (tree, found, n), ==, 10);
  g_autofree guint8 *below = mg_call_tree_find_matches (tree, down, found, n);
  guint main_node = mg_call_tree_find_child (tree, down, MG_CALL_TREE_ROOT, "main");
  guint b = mg_call_tree_find_child (tree, down, main_node, "b");
  g_assert_true (below[MG_CALL_TREE_ROOT]);
  g_assert_true (below[main_node]);
  g_assert_false (below[mg_call_tree_find_child (tree, down, main_node, "a")]);
  g_assert_false (below[b]);  /* b itself, nothing below */
  g_autofree guint8 *callers = mg_call_tree_find_matches (tree, up, found, n);
  guint c = mg_call_tree_find_child (tree, up, MG_CALL_TREE_ROOT, "c");
  g_assert_true (callers[c]);
  g_assert_false (callers[mg_call_tree_find_child (tree, up, MG_CALL_TREE_ROOT, "a")]);
  /* Ids past the array match nothing. */
  g_assert_cmpuint (mg_call_tree_count_matching (tree, found, 0), ==, 0);
}

/* An inlined function is a call of its own; an unresolved address is
 * named by its offset; an empty stack counts in the total only. */
static void
test_inline_and_unknown (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = mg_call_tree_new_empty (namer);
  const MgCallTreeKind k = MG_CALL_TREE_TOP_DOWN;

  add (tree, 6, 2, (guint64) 0x510, (guint64) 0x111);
  add (tree, 3, 2, (guint64) 0x900, (guint64) 0x111);
  add (tree, 1, 0);
  mg_call_tree_finish (tree);
  g_assert_cmpuint (mg_call_tree_get_total (tree), ==, 10);
  check_function (tree, "inl", 6, 6);
  check_function (tree, "d", 0, 6);
  check_function (tree, "0x900", 3, 3);
  check_function (tree, "main", 0, 9);
  guint main_node = check_node (tree, k, MG_CALL_TREE_ROOT, "main", 0, 9, 2);
  guint d = check_node (tree, k, main_node, "d", 0, 6, 1);
  const MgCallFunction *inl = mg_call_tree_get_node (tree, k,
                                                     check_node (tree, k, d, "inl", 6, 6, 0),
                                                     NULL, NULL);
  g_assert_cmpstr (inl->file, ==, "/src/inl.h");
  g_assert_cmpuint (inl->line, ==, 7);
}

/* An unresolved caller is named by its return address, as the exports
 * and the report name it, though it is looked up one byte back: the
 * window showed 0x950 where the folded export said 0x951. */
static void
test_unknown_return_address (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = mg_call_tree_new_empty (namer);

  add (tree, 4, 3, (guint64) 0x900, (guint64) 0x951, (guint64) 0x111);
  mg_call_tree_finish (tree);
  check_function (tree, "0x900", 4, 4);
  check_function (tree, "0x951", 0, 4);
  g_assert_cmpint (mg_call_tree_find_function (tree, "0x950"), <, 0);
  check_function (tree, "main", 0, 4);
}

/* The namer outlives trees: a second tree of the same stacks names
 * nothing again. */
static void
test_namer_cache (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) first = three_paths (namer);
  g_autoptr (MgCallTree) second = three_paths (namer);

  g_assert_cmpuint (calls, ==, 7);
  g_assert_cmpuint (mg_frame_namer_get_n_functions (namer), ==, 4);
  check_function (second, "a", 60, 90);
  /* An empty set: no functions, total 0. */
  g_autoptr (MgCallTree) empty = mg_call_tree_new (namer, NULL);
  g_assert_cmpuint (mg_call_tree_get_total (empty), ==, 0);
  g_assert_cmpuint (mg_call_tree_get_n_functions (empty), ==, 0);
  g_assert_cmpuint (mg_call_tree_get_n_children (empty, MG_CALL_TREE_BOTTOM_UP,
                                                 MG_CALL_TREE_ROOT), ==, 0);
}

/* Processes 0 and 2 (of 3): main→a→c, main→a, main; main→a again (one
 * stack of the index with process 0's), main→b→b (a recursion) and a
 * stack without frames. 30 samples. */
static MgProfile *
index_profile (void)
{
  MgProfile *profile = mg_profile_new_empty ();

  stacks_fixture_set (profile, "processes 3\n"
                               "process 0 taken 0\n"
                               "windows 0..1 1..2 2..3\n"
                               "0 0x102;0x202;0x401 5 mpi thread 1\n"
                               "0 0x102;0x201 3\n"
                               "1 0x101 2\n"
                               "2 0x102;0x202;0x401 7 mpi thread 1\n"
                               "process 2 taken 0\n"
                               "windows 0..1 1..2 2..3\n"
                               "0 0x102;0x201 4\n"
                               "1 0x102;0x302;0x301 6\n"
                               "2 - 1\n"
                               "2 0x102;0x201 2\n");
  return profile;
}

/* The same node of two trees: name, counts and children, recursively. */
static void
assert_same_node (MgCallTree *want, MgCallTree *got, MgCallTreeKind kind, guint w, guint g)
{
  guint64 want_self, want_total, got_self, got_total;
  const MgCallFunction *fw = mg_call_tree_get_node (want, kind, w, &want_self, &want_total);
  const MgCallFunction *fg = mg_call_tree_get_node (got, kind, g, &got_self, &got_total);

  g_assert_cmpstr (fw ? fw->name : NULL, ==, fg ? fg->name : NULL);
  g_assert_cmpuint (want_self, ==, got_self);
  g_assert_cmpuint (want_total, ==, got_total);
  g_assert_cmpuint (mg_call_tree_get_waiting (want, kind, w), ==,
                    mg_call_tree_get_waiting (got, kind, g));
  g_assert_cmpuint (mg_call_tree_get_n_children (want, kind, w), ==,
                    mg_call_tree_get_n_children (got, kind, g));
  for (guint i = 0; i < mg_call_tree_get_n_children (want, kind, w); i++)
    assert_same_node (want, got, kind, mg_call_tree_get_child (want, kind, w, i),
                      mg_call_tree_get_child (got, kind, g, i));
}

static void
assert_same_tree (MgCallTree *want, MgCallTree *got)
{
  g_assert_cmpuint (mg_call_tree_get_total (want), ==, mg_call_tree_get_total (got));
  g_assert_cmpuint (mg_call_tree_get_n_functions (want), ==, mg_call_tree_get_n_functions (got));
  for (guint i = 0; i < mg_call_tree_get_n_functions (want); i++)
    {
      guint64 ws, wt, gs, gt;
      const MgCallFunction *fw = mg_call_tree_get_function (want, i, &ws, &wt);
      const MgCallFunction *fg = mg_call_tree_get_function (got, i, &gs, &gt);
      g_assert_cmpstr (fw->name, ==, fg->name);
      g_assert_cmpuint (ws, ==, gs);
      g_assert_cmpuint (wt, ==, gt);
      g_assert_cmpuint (mg_call_tree_get_line (want, fw), ==, mg_call_tree_get_line (got, fg));
    }
  assert_same_node (want, got, MG_CALL_TREE_TOP_DOWN, MG_CALL_TREE_ROOT, MG_CALL_TREE_ROOT);
  assert_same_node (want, got, MG_CALL_TREE_BOTTOM_UP, MG_CALL_TREE_ROOT, MG_CALL_TREE_ROOT);
}

/* The profile's index answers each selection as a tree built stack by
 * stack from that selection's MgStackSet does, naming each address once. */
static void
test_index (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgProfile) profile = index_profile ();
  g_autoptr (MgCallIndex) index = mg_call_index_new (namer, profile);
  static const struct {
    int process;
    double t0, t1;
    guint64 total;
  } queries[] = {
    { -1, -INFINITY, INFINITY, 30 }, { 0, -INFINITY, INFINITY, 17 }, { 2, -INFINITY, INFINITY, 13 },
    { 1, -INFINITY, INFINITY, 0 }, { -1, 0.5, 1.5, 20 }, { -1, 1, 2, 8 }, { 2, 2.5, 3, 3 },
    { -1, 3, 4, 0 },
  };

  /* main→a is one stack for both processes. */
  g_assert_cmpuint (mg_call_index_get_n_stacks (index), ==, 5);
  /* Four distinct lookups: 0x401, 0x201 (also 0x202's return address),
   * 0x101 and 0x301. */
  g_assert_cmpuint (calls, ==, 4);
  for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
    {
      guint n_processes;
      g_autoptr (MgStackSet) set = mg_stack_set_new (profile, queries[q].process, queries[q].t0,
                                                     queries[q].t1);
      g_autoptr (MgCallTree) want = mg_call_tree_new (namer, set);
      g_autoptr (MgCallTree) got = mg_call_index_query (index, queries[q].process, queries[q].t0,
                                                        queries[q].t1, &n_processes);
      g_assert_cmpuint (mg_call_tree_get_total (got), ==, queries[q].total);
      g_assert_cmpuint (n_processes, ==, mg_stack_set_get_n_processes (set));
      assert_same_tree (want, got);
    }
  /* Whole run by value: main→a→c's 12 samples (5 + 7) waited in MPI. */
  g_autoptr (MgCallTree) whole = mg_call_index_query (index, -1, -INFINITY, INFINITY, NULL);
  g_assert_cmpuint (mg_call_tree_get_waiting (whole, MG_CALL_TREE_TOP_DOWN, MG_CALL_TREE_ROOT), ==,
                    12);
  /* Whole run by value: b's recursion counts its 6 samples once. */
  g_autoptr (MgCallTree) all = mg_call_index_query (index, -1, -INFINITY, INFINITY, NULL);
  check_function (all, "b", 6, 6);
  check_function (all, "a", 9, 21);
  check_function (all, "c", 12, 12);
  check_function (all, "main", 2, 29);
  g_assert_cmpuint (calls, ==, 4);
}

static guint
function_line (MgCallTree *tree, const char *name)
{
  int row = mg_call_tree_find_function (tree, name);

  g_assert_cmpint (row, >=, 0);
  return mg_call_tree_get_line (tree, mg_call_tree_get_function (tree, (guint) row, NULL, NULL));
}

/* A function's line is where most of its own samples were, not its first
 * address's: a first seen at line 5 (1 sample), then 48 (3) and 32 (3):
 * the tie goes to the lower, 32; a recursion on line 80 (2 samples, the
 * line twice in each stack) stays behind. b calls c from line 32 (5
 * samples) but its own 2 samples are on line 10: 10. main has none of
 * its own: its first address is on line 32 (1 sample), its calls from
 * line 16 (8 + 7 samples passed): 16. */
static void
test_hot_line (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = mg_call_tree_new_empty (namer);

  add (tree, 1, 2, (guint64) 0x205, (guint64) 0x121);
  add (tree, 3, 2, (guint64) 0x230, (guint64) 0x111);
  add (tree, 3, 2, (guint64) 0x220, (guint64) 0x111);
  add (tree, 2, 3, (guint64) 0x250, (guint64) 0x251, (guint64) 0x111);
  add (tree, 5, 3, (guint64) 0x410, (guint64) 0x321, (guint64) 0x111);
  add (tree, 2, 2, (guint64) 0x30a, (guint64) 0x111);
  mg_call_tree_finish (tree);

  int row = mg_call_tree_find_function (tree, "a");
  g_assert_cmpuint (mg_call_tree_get_function (tree, (guint) row, NULL, NULL)->line, ==, 5);
  g_assert_cmpuint (function_line (tree, "a"), ==, 32);
  g_assert_cmpuint (function_line (tree, "b"), ==, 10);
  g_assert_cmpuint (function_line (tree, "c"), ==, 16);
  g_assert_cmpuint (function_line (tree, "main"), ==, 16);
  /* The inlined function's lines in its own file; d's call site in d.c. */
  g_autoptr (MgCallTree) inl = mg_call_tree_new_empty (namer);
  add (inl, 4, 2, (guint64) 0x500, (guint64) 0x111);
  mg_call_tree_finish (inl);
  g_assert_cmpuint (function_line (inl, "inl"), ==, 7);
  g_assert_cmpuint (function_line (inl, "d"), ==, 20);
  /* No line known: 0. */
  g_autoptr (MgCallTree) unknown = mg_call_tree_new_empty (namer);
  add (unknown, 1, 1, (guint64) 0x900);
  mg_call_tree_finish (unknown);
  g_assert_cmpuint (mg_call_tree_get_line (unknown, mg_call_tree_get_function (unknown, 0, NULL,
                                                                               NULL)), ==, 0);
}

/* The hottest line follows the selection: a on line 48 ×5 and 32 ×2 in
 * (0, 1], 48 ×1 and 32 ×4 in (2, 3]; the whole run 6 each, the lower
 * line. The index and a tree of the same selection's stacks agree. */
static void
test_hot_line_range (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgProfile) profile = mg_profile_new_empty ();

  stacks_fixture_set (profile, "processes 1\n"
                               "process 0 taken 0\n"
                               "windows 0..1 1..2 2..3\n"
                               "0 0x111;0x230 5\n"
                               "0 0x111;0x220 2\n"
                               "2 0x111;0x220 4\n"
                               "2 0x111;0x230 1\n");
  g_autoptr (MgCallIndex) index = mg_call_index_new (namer, profile);
  static const struct {
    double t0, t1;
    guint line;
  } queries[] = { { -INFINITY, INFINITY, 32 }, { -INFINITY, 0.5, 48 }, { 2.5, 3, 32 } };

  for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
    {
      g_autoptr (MgStackSet) set = mg_stack_set_new (profile, 0, queries[q].t0, queries[q].t1);
      g_autoptr (MgCallTree) want = mg_call_tree_new (namer, set);
      g_autoptr (MgCallTree) got = mg_call_index_query (index, 0, queries[q].t0, queries[q].t1,
                                                        NULL);
      g_assert_cmpuint (function_line (got, "a"), ==, queries[q].line);
      g_assert_cmpuint (function_line (want, "a"), ==, queries[q].line);
      g_assert_cmpuint (function_line (got, "main"), ==, 16);
      assert_same_tree (want, got);
    }
}

/* main→a ×60 computing, main→b→c ×30 waiting in MPI and ×10 computing
 * (the same frames: two stacks): a waited 0 of 60, b and c 30 of 40, main
 * and the root 30 of 100; bottom up, c 30 of its 40. */
static MgCallTree *
mixed_paths (MgFrameNamer *namer)
{
  MgCallTree *tree = mg_call_tree_new_empty (namer);

  add (tree, 60, 2, (guint64) 0x205, (guint64) 0x121);
  add_waiting (tree, 30, 3, (guint64) 0x410, (guint64) 0x331, (guint64) 0x141);
  add (tree, 10, 3, (guint64) 0x410, (guint64) 0x331, (guint64) 0x141);
  mg_call_tree_finish (tree);
  return tree;
}

static void
test_waiting (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = mixed_paths (namer);
  const MgCallTreeKind down = MG_CALL_TREE_TOP_DOWN;

  g_assert_cmpuint (mg_call_tree_get_waiting (tree, down, MG_CALL_TREE_ROOT), ==, 30);
  guint main_node = check_node (tree, down, MG_CALL_TREE_ROOT, "main", 0, 100, 2);
  g_assert_cmpuint (mg_call_tree_get_waiting (tree, down, main_node), ==, 30);
  guint a = check_node (tree, down, main_node, "a", 60, 60, 0);
  g_assert_cmpuint (mg_call_tree_get_waiting (tree, down, a), ==, 0);
  guint b = check_node (tree, down, main_node, "b", 0, 40, 1);
  g_assert_cmpuint (mg_call_tree_get_waiting (tree, down, b), ==, 30);
  guint c = check_node (tree, down, b, "c", 40, 40, 0);
  g_assert_cmpuint (mg_call_tree_get_waiting (tree, down, c), ==, 30);
  guint c_up = check_node (tree, MG_CALL_TREE_BOTTOM_UP, MG_CALL_TREE_ROOT, "c", 40, 40, 1);
  g_assert_cmpuint (mg_call_tree_get_waiting (tree, MG_CALL_TREE_BOTTOM_UP, c_up), ==, 30);
}

static const MgFlameBox *
box_at (GArray *boxes, guint i)
{
  return &g_array_index (boxes, MgFlameBox, i);
}

static void
check_box (MgCallTree *tree, GArray *boxes, guint i, const char *name, guint depth, double x0,
           double x1)
{
  const MgFlameBox *b = box_at (boxes, i);
  const MgCallFunction *f = mg_call_tree_get_node (tree, MG_CALL_TREE_TOP_DOWN, b->node, NULL,
                                                   NULL);
  g_assert_cmpstr (f ? f->name : NULL, ==, name);
  g_assert_cmpuint (b->depth, ==, depth);
  g_assert_cmpfloat_with_epsilon (b->x0, x0, 1e-9);
  g_assert_cmpfloat_with_epsilon (b->x1, x1, 1e-9);
}

/* The icicle of the three paths: widths are shares of the total; zoomed
 * to a, a is the full width and c a third of it. */
static void
test_flame_layout (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = three_paths (namer);
  g_autoptr (GArray) all = mg_flame_layout (tree, MG_CALL_TREE_ROOT, 0);

  g_assert_cmpuint (all->len, ==, 6);
  check_box (tree, all, 0, NULL, 0, 0, 1);
  check_box (tree, all, 1, "main", 1, 0, 1);
  check_box (tree, all, 2, "a", 2, 0, 0.9);
  check_box (tree, all, 3, "c", 3, 0, 0.3);
  check_box (tree, all, 4, "b", 2, 0.9, 1);
  check_box (tree, all, 5, "c", 3, 0.9, 1);
  g_assert_cmpint (mg_flame_hit (all, 0.95, 2), ==, 4);
  g_assert_cmpint (mg_flame_hit (all, 0.5, 3), ==, -1);  /* a's self time */
  g_assert_cmpint (mg_flame_hit (all, 0.5, 7), ==, -1);

  guint a = box_at (all, 2)->node;
  g_autoptr (GArray) zoomed = mg_flame_layout (tree, a, 0);
  g_assert_cmpuint (zoomed->len, ==, 4);
  check_box (tree, zoomed, 0, NULL, 0, 0, 1);
  check_box (tree, zoomed, 1, "main", 1, 0, 1);
  check_box (tree, zoomed, 2, "a", 2, 0, 1);
  check_box (tree, zoomed, 3, "c", 3, 0, 1.0 / 3);

  /* Narrower than 15 %: b (10 %) and what it called left out. */
  g_autoptr (GArray) wide = mg_flame_layout (tree, MG_CALL_TREE_ROOT, 0.15);
  g_assert_cmpuint (wide->len, ==, 4);
  g_assert_cmpint (mg_flame_hit (wide, 0.95, 2), ==, -1);
}

static guint32
pixel (cairo_surface_t *surface, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  return *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);
}

static guint32
argb (const double rgb[3])
{
  return 0xff000000u | (guint32) lround (rgb[0] * 255) << 16 | (guint32) lround (rgb[1] * 255) << 8
         | (guint32) lround (rgb[2] * 255);
}

/* Boxes drawn in their module's colour where the layout puts them, and
 * nothing where a function ran itself (no box below it). */
static void
test_flame_render (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = three_paths (namer);
  g_autoptr (GArray) boxes = mg_flame_layout (tree, MG_CALL_TREE_ROOT, 0);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 80);
  cairo_t *cr = cairo_create (surface);
  double grey[3];

  mg_flame_render (cr, tree, boxes, 400, 20, FALSE, "all");
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  mg_flame_colour (NULL, FALSE, grey);
  g_assert_cmphex (pixel (surface, 350, 41), ==, argb (grey));  /* a, depth 2 */
  g_assert_cmphex (pixel (surface, 390, 41), ==, argb (grey));  /* b */
  g_assert_cmphex (pixel (surface, 100, 61), ==, argb (grey));  /* c under a */
  g_assert_cmphex (pixel (surface, 300, 61), ==, 0);            /* a's self time */
  g_assert_cmphex (pixel (surface, 359, 41), ==, 0);            /* the gap after a */
  cairo_surface_destroy (surface);

  /* Modules have hues of their own, lighter in a light theme. */
  MgCallFunction prog = { .name = (char *) "f", .module = (char *) "/bin/prog" };
  MgCallFunction libm = { .name = (char *) "g", .module = (char *) "/lib/libm.so.6" };
  double p[3], m[3], pd[3];
  mg_flame_colour (&prog, FALSE, p);
  mg_flame_colour (&libm, FALSE, m);
  mg_flame_colour (&prog, TRUE, pd);
  g_assert_cmphex (argb (p), !=, argb (m));
  g_assert_cmpfloat (p[0] + p[1] + p[2], >, pd[0] + pd[1] + pd[2]);
}

/* PIXEL within one step of RGB in each channel (cairo rounds its own way). */
static void
assert_pixel_near (guint32 pixel, const double rgb[3])
{
  guint32 want = argb (rgb);

  g_assert_cmphex (pixel >> 24, ==, 0xff);
  for (guint shift = 0; shift < 24; shift += 8)
    g_assert_cmpint (abs ((int) ((pixel >> shift) & 0xff) - (int) ((want >> shift) & 0xff)), <=, 1);
}

/* Coloured by activity, as a flame: a (all computing) in the activity
 * row's Computing colour, b (30 of 40 waiting) three quarters of the way
 * to MPI's, the rows counted from the bottom. */
static void
test_flame_activity (void)
{
  guint calls = 0;
  g_autoptr (MgFrameNamer) namer = test_namer (&calls);
  g_autoptr (MgCallTree) tree = mixed_paths (namer);
  g_autoptr (GArray) boxes = mg_flame_layout (tree, MG_CALL_TREE_ROOT, 0);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 100);
  cairo_t *cr = cairo_create (surface);
  MgFlameStyle style = { 400, 100, 20, MG_FLAME_FLAME, MG_FLAME_BY_ACTIVITY, FALSE, "all", NULL, 0 };
  double computing[3], mixed[3], root[3];

  mg_flame_draw (cr, tree, boxes, &style);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  mg_flame_activity_colour (0, computing);
  mg_flame_activity_colour (0.75, mixed);
  mg_flame_activity_colour (0.3, root);
  MgRgba green = mg_activity_render_class_colour (MG_ACTIVITY_COMPUTING);
  MgRgba blue = mg_activity_render_class_colour (MG_ACTIVITY_MPI);
  double all_mpi[3];
  mg_flame_activity_colour (1, all_mpi);
  g_assert_cmphex (argb (computing), ==, argb ((double[]) { green.r, green.g, green.b }));
  g_assert_cmphex (argb (all_mpi), ==, argb ((double[]) { blue.r, blue.g, blue.b }));
  /* Rows from the bottom: All 80-99, main 60-79, a and b 40-59, c 20-39. */
  assert_pixel_near (pixel (surface, 100, 90), root);
  assert_pixel_near (pixel (surface, 100, 50), computing); /* a: 60 % */
  assert_pixel_near (pixel (surface, 300, 50), mixed);     /* b */
  assert_pixel_near (pixel (surface, 300, 30), mixed);     /* c under b */
  g_assert_cmphex (pixel (surface, 100, 30), ==, 0);                /* a's self time */
  g_assert_cmphex (pixel (surface, 100, 10), ==, 0);                /* above the deepest */
  cairo_surface_destroy (surface);
  g_assert_cmpint (mg_flame_row_at (90, MG_FLAME_FLAME, 100, 20), ==, 0);
  g_assert_cmpint (mg_flame_row_at (90, MG_FLAME_ICICLE, 100, 20), ==, 4);
  g_assert_cmpint (mg_flame_row_at (100, MG_FLAME_FLAME, 100, 20), ==, -1);
  g_assert_cmpfloat (mg_flame_row_top (1, MG_FLAME_FLAME, 100, 20), ==, 60);
}

/* Names and a file as a program called caf\xe9 has them: not UTF-8, with
 * a quote and a comma (every address, the callers' too), or with control
 * characters (0x300). */
static guint
hostile_name (const MgStackModule *module, guint64 vaddr, MgFrameNameEntry *entries, guint max,
              gpointer user_data)
{
  entries[0] = (MgFrameNameEntry) { vaddr == 0x300 ? "ctl\t\x1b[31m" : "caf\xe9 \"q\", x",
                                    "/src/caf\xe9.c", 3 };
  return 1;
}

/* The Functions table as CSV: UTF-8 (the name's \xe9 went into the file
 * as it was, which Python's csv reading UTF-8 stops at), quoted as RFC
 * 4180 says; and the flame graph drawn whole (cairo stopped at the
 * name). */
static void
test_functions_csv (void)
{
  g_autoptr (MgFrameNamer) namer = mg_frame_namer_new (hostile_name, NULL, NULL);
  g_autoptr (MgCallTree) tree = mg_call_tree_new_empty (namer);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("mg-functions-csv-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "functions.csv", NULL);
  g_autofree char *text = NULL;

  add (tree, 3, 2, (guint64) 0x200, (guint64) 0x100);
  add (tree, 1, 2, (guint64) 0x300, (guint64) 0x100);
  mg_call_tree_finish (tree);
  /* Control characters as the report and the exports write them. */
  g_assert_cmpint (mg_call_tree_find_function (tree, "ctl\\t\\x1b[31m"), >=, 0);
  g_assert_true (mg_functions_csv_save (tree, NULL, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_nonnull (strstr (text, "\"caf\xef\xbf\xbd \"\"q\"\", x\",75.000,100.000,3,4,"
                                  "\"caf\xef\xbf\xbd.c:3\""));
  g_unlink (path);
  g_rmdir (dir);

  /* The flame graph draws its label: cairo takes UTF-8 only, and stops
   * drawing at the first string that is not (CAIRO_STATUS_INVALID_STRING). */
  g_autoptr (GArray) boxes = mg_flame_layout (tree, MG_CALL_TREE_ROOT, 0);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 60);
  cairo_t *cr = cairo_create (surface);
  mg_flame_render (cr, tree, boxes, 400, 20, FALSE, "all");
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/call-tree/functions-table", test_functions_table);
  g_test_add_func ("/call-tree/functions-ties", test_functions_ties);
  g_test_add_func ("/call-tree/functions-csv", test_functions_csv);
  g_test_add_func ("/call-tree/top-down", test_top_down);
  g_test_add_func ("/call-tree/bottom-up", test_bottom_up);
  g_test_add_func ("/call-tree/recursion", test_recursion);
  g_test_add_func ("/call-tree/inline-and-unknown", test_inline_and_unknown);
  g_test_add_func ("/call-tree/unknown-return-address", test_unknown_return_address);
  g_test_add_func ("/call-tree/namer-cache", test_namer_cache);
  g_test_add_func ("/call-tree/index", test_index);
  g_test_add_func ("/call-tree/hot-line", test_hot_line);
  g_test_add_func ("/call-tree/hot-line-range", test_hot_line_range);
  g_test_add_func ("/call-tree/matches", test_matches);
  g_test_add_func ("/flame-graph/layout", test_flame_layout);
  g_test_add_func ("/flame-graph/render", test_flame_render);
  g_test_add_func ("/call-tree/waiting", test_waiting);
  g_test_add_func ("/flame-graph/activity", test_flame_activity);
  return g_test_run ();
}
