/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report's "Where the time went: across processes" on three ranks of
 * known stacks: each function's mean share of a rank's samples, the rank
 * of its max and min, read back from the report's lines and its text. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "report-fixture.h"
#include "stacks-fixture.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-stack-builder.h"
#include "profile/mg-stack-pack.h"
#include "profile/mg-stack-set.h"
#include "report/mg-report.h"
#include "report/mg-report-writer.h"

#define ACROSS "Where the time went: across processes"

/* 0x1xx main, 0x2xx MPI_Barrier, 0x3xx compute, 0x4xx zroot. */
static gboolean
name_frame (gpointer data, const char *module_path, const guint8 *build_id, gsize build_id_len,
            guint64 vaddr, GPtrArray *names)
{
  static const char *const functions[] = { NULL, "main", "MPI_Barrier", "compute", "zroot" };
  /* 0x5xx solve, in solve.c on line (vaddr & 0xff). */
  if (vaddr >> 8 == 5)
    {
      MgStackFrameName *name = g_new0 (MgStackFrameName, 1);
      name->function = g_strdup ("solve");
      name->label = g_strdup ("solve");
      name->file = g_strdup ("/src/solve.c");
      name->line = (guint) (vaddr & 0xff);
      g_ptr_array_add (names, name);
      return TRUE;
    }
  if (vaddr >> 8 < 1 || vaddr >> 8 > 4)
    return FALSE;
  MgStackFrameName *name = g_new0 (MgStackFrameName, 1);
  name->function = g_strdup (functions[vaddr >> 8]);
  name->label = g_strdup (functions[vaddr >> 8]);
  g_ptr_array_add (names, name);
  return TRUE;
}

/* Whether main is called from zroot, a caller whose name sorts after it. */
static gboolean with_root;

/* The fixture's ranks 0, 1, 2, one window over the run: main→MPI_Barrier
 * 97 of 100, 30 of 100, 5 of 50 samples; main→compute the rest (with_root,
 * main called from zroot). */
static void
set_stacks (MgProfile *profile, guint n_processes)
{
  const guint32 barrier[] = { 97, 30, 5 }, compute[] = { 3, 70, 45 };
  const char *callers = with_root ? "0x421;0x121" : "0x121";
  g_autoptr (GString) description = g_string_new ("module /bin/solver\n");

  for (guint p = 0; p < n_processes; p++)
    g_string_append_printf (description,
                            "process %u\n"
                            "windows 0..4\n"
                            "0 %s;0x210 %u\n"
                            "0 %s;0x310 %u\n",
                            p, callers, barrier[p], callers, compute[p]);
  stacks_fixture_set (profile, description->str);
}

static const MgReportSection *
find_section (const MgReport *report, const char *heading)
{
  for (guint i = 0; i < report->sections->len; i++)
    {
      const MgReportSection *s = g_ptr_array_index (report->sections, i);
      if (g_str_equal (s->heading, heading))
        return s;
    }
  return NULL;
}

/* The section under heading, which must be there. */
static const MgReportSection *
section (const MgReport *report, const char *heading)
{
  const MgReportSection *s = find_section (report, heading);
  if (s == NULL)
    g_error ("no section “%s”", heading);
  return s;
}

static void
assert_line (const MgReportSection *s, guint i, const char *name, double value)
{
  const MgReportLine *line = g_ptr_array_index (s->lines, i);
  g_assert_cmpstr (line->name, ==, name);
  g_assert_cmpfloat_with_epsilon (line->value, value, 1e-9);
}

static void
test_across_ranks (void)
{
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  MgStackNamer namer = { name_frame, NULL };

  set_stacks (profile, 3);
  g_autoptr (MgReport) report = mg_report_new_named (profile, NULL, NULL, &namer);
  const MgReportSection *s = section (report, ACROSS);
  g_assert_nonnull (strstr (s->text, "each of the 3 processes"));
  g_assert_cmpuint (s->lines->len, ==, 3);
  /* By mean: main 100 %, compute (3 + 70 + 90) / 3, MPI_Barrier
   * (97 + 30 + 10) / 3. */
  assert_line (s, 0, "main: mean 100.0 %, max 100.0 % on rank 0, min 100.0 % on rank 0", 100);
  assert_line (s, 1, "compute: mean 54.3 %, max 90.0 % on rank 2, min 3.0 % on rank 0",
               163.0 / 3);
  assert_line (s, 2, "MPI_Barrier: mean 45.7 %, max 97.0 % on rank 0, min 10.0 % on rank 2",
               137.0 / 3);

  g_autofree char *text = mg_report_to_text (report);
  const char *at = strstr (text, ACROSS);
  g_assert_nonnull (at);
  g_assert_nonnull (strstr (at, "MPI_Barrier: mean 45.7 %, max 97.0 % on rank 0, min 10.0 % on "
                                "rank 2"));
  /* The whole run's sections stay: MPI_Barrier 132 of 250 samples. */
  const MgReportSection *total = section (report, "Where the time went: total");
  gboolean found = FALSE;
  for (guint i = 0; i < total->lines->len; i++)
    {
      const MgReportLine *line = g_ptr_array_index (total->lines, i);
      if (!g_str_equal (line->name, "MPI_Barrier"))
        continue;
      g_assert_cmpfloat_with_epsilon (line->value, 100.0 * 132 / 250, 1e-9);
      found = TRUE;
    }
  g_assert_true (found);
}

/* One process with stacks: no figures across processes. */
static void
test_one_process (void)
{
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  MgStackNamer namer = { name_frame, NULL };

  set_stacks (profile, 1);
  g_autoptr (MgReport) report = mg_report_new_named (profile, NULL, NULL, &namer);
  g_assert_nonnull (find_section (report, "Where the time went: self"));
  g_assert_null (find_section (report, ACROSS));
}

/* Functions in every stack (a tie) are listed callers first, as the
 * chain reads, not by name: zroot, then main it calls. */
static void
test_callers_first (void)
{
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  MgStackNamer namer = { name_frame, NULL };

  with_root = TRUE;
  set_stacks (profile, 1);
  with_root = FALSE;
  g_autoptr (MgReport) report = mg_report_new_named (profile, NULL, NULL, &namer);
  const MgReportSection *total = section (report, "Where the time went: total");
  g_assert_cmpuint (total->lines->len, ==, 4);
  assert_line (total, 0, "zroot", 100);
  assert_line (total, 1, "main", 100);
  assert_line (total, 2, "MPI_Barrier", 97);
  assert_line (total, 3, "compute", 3);
  /* Self: the leaves by count, unchanged. */
  const MgReportSection *self = section (report, "Where the time went: self");
  assert_line (self, 0, "MPI_Barrier", 97);
  assert_line (self, 1, "compute", 3);
}

/* Stacks opened packed from a file whose rank 0's windows and counts are
 * cut short: the report says so where its stacks would be, and the rest
 * of it stands. */
static void
test_damaged (void)
{
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  MgStackNamer namer = { name_frame, NULL };

  set_stacks (profile, 3);
  g_autoptr (GVariant) packed = mg_stack_pack (profile->stacks);
  g_autoptr (GVariant) modules = g_variant_get_child_value (packed, 0);
  g_autoptr (GVariant) table = g_variant_get_child_value (packed, 1);
  g_autoptr (GVariant) procs = g_variant_get_child_value (packed, 2);
  GVariantBuilder cut;
  g_variant_builder_init (&cut, G_VARIANT_TYPE ("a(ittuauay)"));
  for (gsize i = 0; i < g_variant_n_children (procs); i++)
    {
      g_autoptr (GVariant) proc = g_variant_get_child_value (procs, i);
      g_autoptr (GVariant) which = g_variant_get_child_value (proc, 4);
      g_autoptr (GVariant) blob = g_variant_get_child_value (proc, 5);
      gint32 index;
      guint64 taken, lost;
      guint32 state;
      gsize len;
      const guint8 *bytes = g_variant_get_fixed_array (blob, &len, 1);
      g_variant_get (proc, "(ittu@au@ay)", &index, &taken, &lost, &state, NULL, NULL);
      g_variant_builder_add (&cut, "(ittu@au@ay)", index, taken, lost, state, which,
                             g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, bytes,
                                                        i == 0 ? 3 : len, 1));
    }
  GVariant *damaged = g_variant_ref_sink (g_variant_new ("(@a(ayay)@a(a(ut)uu)@a(ittuauay))",
                                                         modules, table,
                                                         g_variant_builder_end (&cut)));
  /* As the reader leaves a profile it opened (mg-profile-reader.c). */
  profile->stacks_packed = damaged;
  profile->stacks_pending = g_variant_ref (damaged);
  g_clear_pointer (&profile->stacks, g_variant_unref);
  profile->stacks = mg_stack_payload_empty ();
  g_free (profile->file_name);
  profile->file_name = g_strdup ("run.mgprof");

  g_autoptr (MgReport) report = mg_report_new_named (profile, NULL, NULL, &namer);
  const MgReportSection *s = section (report, "Where the time went");
  g_assert_nonnull (strstr (s->text, "run.mgprof"));
  g_assert_nonnull (strstr (s->text, "(call stacks)"));
  g_assert_cmpuint (s->lines->len, ==, 0);
  g_assert_null (find_section (report, "Where the time went: self"));
  g_assert_null (find_section (report, ACROSS));
}

/* The report names a function's line by the views' rule (mg-hot-line.h):
 * solve's samples 3 on line 9, 3 on line 12 (a tie: the lower line, not
 * "solve.c:12", which sorts first as text) and 2 on line 40. */
static void
test_hot_line (void)
{
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  MgStackNamer namer = { name_frame, NULL };

  stacks_fixture_set (profile, "module /bin/solver\n"
                               "process 0\n"
                               "windows 0..4\n"
                               "0 0x121;0x50c 3\n"
                               "0 0x121;0x509 3\n"
                               "0 0x121;0x528 2\n");

  g_autoptr (MgReport) report = mg_report_new_named (profile, NULL, NULL, &namer);
  assert_line (section (report, "Where the time went: self"), 0, "solve (solve.c:9)", 100);
  assert_line (section (report, "Where the time went: total"), 1, "solve (solve.c:9)", 100);
}

/* Samples in code no symbol names (a stripped library, code outside
 * every module) are counted by module, with what to do, under "Code
 * without symbols": 30 + 15 of 100 in liblzma.so.5's unnamed addresses,
 * 5 outside every module, 50 in the named solve. */
static void
test_unnamed (void)
{
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  MgStackNamer namer = { name_frame, NULL };

  stacks_fixture_set (profile, "module /bin/solver\n"
                               "module /usr/lib/x86_64-linux-gnu/liblzma.so.5\n"
                               "process 0\n"
                               "windows 0..4\n"
                               "0 0x121;0x510 50\n"
                               "0 0x121;1:0x1692b 30\n"
                               "0 0x121;1:0x15bc9 15\n"
                               "0 0x121;?:0x999 5\n");

  g_autoptr (MgReport) report = mg_report_new_named (profile, NULL, NULL, &namer);
  const MgReportSection *s = section (report, "Code without symbols");
  g_assert_nonnull (strstr (s->text, "50.0 % of the call-stack samples"));
  g_assert_nonnull (strstr (s->text, "-dbgsym"));
  g_assert_nonnull (strstr (s->text, "-g"));
  g_assert_cmpuint (s->lines->len, ==, 2);
  assert_line (s, 0, "liblzma.so.5", 45);
  assert_line (s, 1, "outside every module", 5);
  /* The functions themselves stay each address apart. */
  assert_line (section (report, "Where the time went: self"), 1, "liblzma.so.5+0x1692b", 30);

  /* Named code, or too little without names (4 of 100): no section. */
  stacks_fixture_set (profile, "module /bin/solver\n"
                               "process 0\n"
                               "windows 0..4\n"
                               "0 0x121;0x510 96\n"
                               "0 0x121;0x999 4\n");
  g_autoptr (MgReport) named = mg_report_new_named (profile, NULL, NULL, &namer);
  g_assert_null (find_section (named, "Code without symbols"));
  g_assert_nonnull (find_section (named, "Where the time went: self"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/where/across-ranks", test_across_ranks);
  g_test_add_func ("/report/where/one-process", test_one_process);
  g_test_add_func ("/report/where/callers-first", test_callers_first);
  g_test_add_func ("/report/where/damaged", test_damaged);
  g_test_add_func ("/report/where/hot-line", test_hot_line);
  g_test_add_func ("/report/where/unnamed", test_unnamed);
  return g_test_run ();
}
