/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MgSymbolizer on programs built for it (tests/symbols/meson.build): inline
 * chains with their lines, C++ names, separate debug info found by
 * build-id and by debug link, a rebuilt binary refused, a missing one kept
 * at module + offset, and the rate over thousands of addresses. */
#define _GNU_SOURCE
#include "symbols-test-support.h"

#include "mg-test-common.h"
#include "mpi-frame-fixture.h"
#include "symbols/mg-demangle.h"

#include <dlfcn.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <link.h>
#include <sys/auxv.h>

static GPtrArray *
resolve_probe (MgSymbolizer *symbolizer, const char *path, SymbolsTestRun *run, const char *label, GError **error)
{
  return mg_symbolizer_resolve (symbolizer, path, run->build_id->data, run->build_id->len,
                                symbols_test_vaddr (run, label), error);
}

/* leaf inlined into middle inlined into outer: three frames, innermost
 * first, each at its marked line; then a plain function. */
static void
test_inline_chain (void)
{
  g_autofree char *program = symbols_test_built ("symbols-target");
  g_autoptr (SymbolsTestRun) run = symbols_test_run (program);
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = resolve_probe (symbolizer, program, run, "inlined", &error);
  g_autoptr (GPtrArray) plain = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (frames->len, ==, 3);
  symbols_test_assert_frame (frames->pdata[0], "symbols_target_leaf", "symbols-target.c", "leaf-call", TRUE);
  symbols_test_assert_frame (frames->pdata[1], "symbols_target_middle", "symbols-target.c", "middle-call", TRUE);
  symbols_test_assert_frame (frames->pdata[2], "symbols_target_outer", "symbols-target.c", "outer-call", FALSE);
  g_assert_cmpstr (((MgSymbolFrame *) frames->pdata[2])->module, ==, program);
  g_assert_cmpuint (((MgSymbolFrame *) frames->pdata[2])->vaddr, ==, symbols_test_vaddr (run, "inlined"));

  plain = resolve_probe (symbolizer, program, run, "plain", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (plain->len, ==, 1);
  symbols_test_assert_frame (plain->pdata[0], "symbols_target_plain", "symbols-target.c", "plain-call", FALSE);
  /* One module, opened once for both. */
  g_assert_cmpuint (mg_symbolizer_get_n_modules (symbolizer), ==, 1);
}

static void
test_cxx_names (void)
{
  g_autofree char *program = symbols_test_built ("symbols-target-cxx");
  g_autofree char *source = symbols_test_source ("symbols-target-cxx.cpp");
  g_autoptr (SymbolsTestRun) run = symbols_test_run (program);
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = resolve_probe (symbolizer, program, run, "cxx-inlined", &error);
  MgSymbolFrame *inlined;

  g_assert_no_error (error);
  g_assert_cmpuint (frames->len, ==, 2);
  inlined = frames->pdata[0];
  /* A function template's demangled name starts with its return type. */
  g_assert_cmpstr (inlined->function, ==, "int metrograph_test::scaled<int>(int)");
  g_assert_cmpstr (inlined->file, ==, source);
  g_assert_cmpuint (inlined->line, ==, symbols_test_marker_line ("symbols-target-cxx.cpp", "scaled-call"));
  g_assert_true (inlined->inlined);
  symbols_test_assert_frame (frames->pdata[1], "metrograph_test::Accumulator<int>::add(int)",
                             "symbols-target-cxx.cpp", "add-call", FALSE);
}

/* Without DWARF, the symbol table's mangled name is demangled; the
 * demangler leaves C names and what it cannot read as they are. */
static void
test_cxx_symbol_table (void)
{
  g_autofree char *original = symbols_test_built ("symbols-target-cxx");
  g_autofree char *program = symbols_test_built ("symbols-target-cxx-nodebug");
  g_autofree char *dir = mg_test_make_dir ("symbols-cxx-symtab");
  g_autoptr (SymbolsTestRun) run = symbols_test_run (original);
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = NULL;
  g_autofree char *plain = mg_demangle ("symbols_target_plain");
  g_autofree char *broken = mg_demangle ("_Zbroken");
  g_autofree char *nested = mg_demangle ("_ZN15metrograph_test11AccumulatorIiE3addEi");
  MgSymbolFrame *frame;

  g_assert_cmpstr (plain, ==, "symbols_target_plain");
  g_assert_cmpstr (broken, ==, "_Zbroken");
  g_assert_cmpstr (nested, ==, "metrograph_test::Accumulator<int>::add(int)");

  /* --strip-debug keeps the build-id: the run's build-id still fits. */
  mg_symbolizer_set_debug_path (symbolizer, dir);
  frames = resolve_probe (symbolizer, program, run, "cxx-inlined", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (frames->len, ==, 1);
  frame = frames->pdata[0];
  g_assert_cmpstr (frame->function, ==, "metrograph_test::Accumulator<int>::add(int)");
  g_assert_null (frame->file);
  g_assert_cmpuint (frame->line, ==, 0);
  g_assert_false (frame->inlined);
  mg_test_remove_tree (dir);
}

/* A stripped program and, elsewhere, its debug file named by build-id. */
static void
test_separate_debug_by_build_id (void)
{
  g_autofree char *original = symbols_test_built ("symbols-target");
  g_autoptr (SymbolsTestRun) run = symbols_test_run (original);
  g_autofree char *dir = mg_test_make_dir ("symbols-build-id");
  g_autofree char *program = g_build_filename (dir, "bin", "symbols-target", NULL);
  g_autofree char *debug_dir = g_build_filename (dir, "debug", NULL);
  g_autofree char *empty_dir = g_build_filename (dir, "empty", NULL);
  g_autofree char *hex = g_strdup ("");
  g_autofree char *id_file = NULL;
  g_autofree char *stripped = symbols_test_built ("symbols-target-stripped");
  g_autofree char *debug = symbols_test_built ("symbols-target.debug");
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autoptr (MgSymbolizer) without = mg_symbolizer_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = NULL;
  g_autoptr (GPtrArray) bare = NULL;

  symbols_test_copy (stripped, program);
  for (guint i = 0; i < run->build_id->len; i++)
    {
      char *longer = g_strdup_printf ("%s%02x", hex, run->build_id->data[i]);

      g_free (hex);
      hex = longer;
    }
  id_file = g_strdup_printf ("%s/.build-id/%.2s/%s.debug", debug_dir, hex, hex + 2);
  symbols_test_copy (debug, id_file);
  g_assert_cmpint (g_mkdir_with_parents (empty_dir, 0755), ==, 0);

  /* Without the debug folder: the stripped file has no symbol at all. */
  mg_symbolizer_set_debug_path (without, empty_dir);
  bare = resolve_probe (without, program, run, "plain", &error);
  g_assert_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_NO_SYMBOLS);
  g_assert_nonnull (strstr (error->message, program));
  g_assert_cmpuint (bare->len, ==, 1);
  g_assert_null (((MgSymbolFrame *) bare->pdata[0])->function);
  g_assert_cmpstr (((MgSymbolFrame *) bare->pdata[0])->module, ==, program);
  g_clear_error (&error);

  g_object_set (symbolizer, "debug-path", debug_dir, NULL);
  frames = resolve_probe (symbolizer, program, run, "inlined", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (frames->len, ==, 3);
  symbols_test_assert_frame (frames->pdata[0], "symbols_target_leaf", "symbols-target.c", "leaf-call", TRUE);
  symbols_test_assert_frame (frames->pdata[2], "symbols_target_outer", "symbols-target.c", "outer-call", FALSE);
  mg_test_remove_tree (dir);
}

/* The stripped program's .gnu_debuglink names its debug file, found in
 * ".debug" beside it. */
static void
test_separate_debug_by_link (void)
{
  g_autofree char *original = symbols_test_built ("symbols-target");
  g_autoptr (SymbolsTestRun) run = symbols_test_run (original);
  g_autofree char *dir = mg_test_make_dir ("symbols-debuglink");
  g_autofree char *program = g_build_filename (dir, "bin", "symbols-target", NULL);
  g_autofree char *linked = g_build_filename (dir, "bin", ".debug", "symbols-target.debug", NULL);
  g_autofree char *empty_dir = g_build_filename (dir, "empty", NULL);
  g_autofree char *path = g_strconcat (":.debug:", empty_dir, NULL);
  g_autofree char *stripped = symbols_test_built ("symbols-target-stripped");
  g_autofree char *debug = symbols_test_built ("symbols-target.debug");
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = NULL;

  symbols_test_copy (stripped, program);
  symbols_test_copy (debug, linked);
  mg_symbolizer_set_debug_path (symbolizer, path);
  g_assert_cmpstr (mg_symbolizer_get_debug_path (symbolizer), ==, path);
  frames = resolve_probe (symbolizer, program, run, "plain", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (frames->len, ==, 1);
  symbols_test_assert_frame (frames->pdata[0], "symbols_target_plain", "symbols-target.c", "plain-call", FALSE);
  mg_test_remove_tree (dir);
}

/* The program was rebuilt from a changed source at the same path after the
 * run: its file is refused, by name; its old debug file, found by the
 * run's build-id, still resolves. */
static void
test_rebuilt_binary (void)
{
  g_autofree char *original = symbols_test_built ("symbols-target");
  g_autofree char *changed = symbols_test_built ("symbols-target-changed");
  g_autofree char *debug = symbols_test_built ("symbols-target.debug");
  g_autofree char *dir = mg_test_make_dir ("symbols-rebuilt");
  g_autofree char *program = g_build_filename (dir, "symbols-target", NULL);
  g_autofree char *debug_dir = g_build_filename (dir, "debug", NULL);
  g_autoptr (SymbolsTestRun) run = NULL;
  g_autoptr (SymbolsTestRun) rebuilt = NULL;
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autoptr (MgSymbolizer) with_debug = mg_symbolizer_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = NULL;
  g_autoptr (GPtrArray) from_debug = NULL;
  g_autoptr (GString) hex = g_string_new (NULL);
  g_autofree char *id_file = NULL;
  MgSymbolFrame *frame;

  symbols_test_copy (original, program);
  run = symbols_test_run (program);
  symbols_test_copy (changed, program);
  rebuilt = symbols_test_run (program);
  g_assert_false (run->build_id->len == rebuilt->build_id->len
                  && memcmp (run->build_id->data, rebuilt->build_id->data, run->build_id->len) == 0);

  mg_symbolizer_set_debug_path (symbolizer, debug_dir);
  frames = resolve_probe (symbolizer, program, run, "plain", &error);
  g_assert_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_BUILD_ID_MISMATCH);
  g_assert_nonnull (strstr (error->message, program));
  g_assert_nonnull (strstr (error->message, "rebuilt"));
  g_assert_cmpuint (frames->len, ==, 1);
  frame = frames->pdata[0];
  g_assert_null (frame->function);
  g_assert_null (frame->file);
  g_assert_cmpstr (frame->module, ==, program);
  g_assert_cmpuint (frame->vaddr, ==, symbols_test_vaddr (run, "plain"));
  g_clear_error (&error);

  for (guint i = 0; i < run->build_id->len; i++)
    g_string_append_printf (hex, "%02x", run->build_id->data[i]);
  id_file = g_strdup_printf ("%s/.build-id/%.2s/%s.debug", debug_dir, hex->str, hex->str + 2);
  symbols_test_copy (debug, id_file);
  mg_symbolizer_set_debug_path (with_debug, debug_dir);
  from_debug = resolve_probe (with_debug, program, run, "plain", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (from_debug->len, ==, 1);
  symbols_test_assert_frame (from_debug->pdata[0], "symbols_target_plain", "symbols-target.c", "plain-call", FALSE);
  mg_test_remove_tree (dir);
}

static void
test_missing_module (void)
{
  g_autofree char *dir = mg_test_make_dir ("symbols-missing");
  g_autofree char *program = g_build_filename (dir, "gone", NULL);
  const guint8 id[] = { 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0 };
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = NULL;
  g_autoptr (GPtrArray) again = NULL;
  g_autofree char *described = NULL;
  g_autofree char *expected = NULL;
  MgSymbolFrame *frame;

  mg_symbolizer_set_debug_path (symbolizer, dir);
  frames = mg_symbolizer_resolve (symbolizer, program, id, sizeof id, 0x1234, &error);
  g_assert_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, program));
  g_assert_nonnull (strstr (error->message, "123456789abcdef0"));
  g_assert_cmpuint (frames->len, ==, 1);
  frame = frames->pdata[0];
  g_assert_null (frame->function);
  g_assert_cmpstr (frame->module, ==, program);
  g_assert_cmpuint (frame->vaddr, ==, 0x1234);
  described = mg_symbol_frame_describe (frame);
  expected = g_strconcat (program, "+0x1234", NULL);
  g_assert_cmpstr (described, ==, expected);
  g_clear_error (&error);

  /* The failure is kept: the next address of the module fails the same
   * way without another search. */
  again = mg_symbolizer_resolve (symbolizer, program, id, sizeof id, 0x5678, &error);
  g_assert_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_NOT_FOUND);
  g_assert_cmpuint (((MgSymbolFrame *) again->pdata[0])->vaddr, ==, 0x5678);
  g_assert_cmpuint (mg_symbolizer_get_n_modules (symbolizer), ==, 1);
  mg_test_remove_tree (dir);
}

typedef struct {
  guintptr address;
  char *path;
  guintptr bias;
} ObjectAt;

static int
object_holding (struct dl_phdr_info *info, size_t size, void *data)
{
  ObjectAt *at = data;

  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      guintptr start = info->dlpi_addr + ph->p_vaddr;

      if (ph->p_type == PT_LOAD && at->address >= start && at->address < start + ph->p_memsz)
        {
          at->path = g_strdup (info->dlpi_name);
          at->bias = info->dlpi_addr;
          return 1;
        }
    }
  return 0;
}

/* A distribution library without its debug info: the dynamic symbol
 * table names the function (GLib's g_strdup, in the shared library this
 * test loaded), without a line. */
static void
test_dynamic_symbols (void)
{
  ObjectAt at = { (guintptr) g_strdup, NULL, 0 };
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autofree char *empty_dir = mg_test_make_dir ("symbols-dynsym");
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = NULL;
  g_autofree char *name = NULL;
  MgSymbolFrame *frame;

  dl_iterate_phdr (object_holding, &at);
  g_assert_nonnull (at.path);
  name = g_path_get_basename (at.path);
  g_assert_true (g_str_has_prefix (name, "libglib-2.0.so"));
  /* No debug folder: whatever the machine has in /usr/lib/debug is not
   * looked at. */
  mg_symbolizer_set_debug_path (symbolizer, empty_dir);
  frames = mg_symbolizer_resolve (symbolizer, at.path, NULL, 0, at.address - at.bias + 4, &error);
  g_assert_no_error (error);
  frame = frames->pdata[frames->len - 1];
  g_assert_cmpstr (frame->function, ==, "g_strdup");
  g_assert_false (frame->inlined);
  g_free (at.path);
  mg_test_remove_tree (empty_dir);
}

/* libdwfl's name lookup, counted: the symbolizer linked into this test
 * calls this definition, which forwards to libdw's. */
static guint addrname_calls;

static const char *
real_addrname (Dwfl_Module *mod, GElf_Addr address)
{
  static const char *(*real) (Dwfl_Module *, GElf_Addr);

  if (real == NULL)
    real = (const char *(*) (Dwfl_Module *, GElf_Addr)) dlsym (RTLD_NEXT, "dwfl_module_addrname");
  g_assert_nonnull (real);
  return real (mod, address);
}

const char *
dwfl_module_addrname (Dwfl_Module *mod, GElf_Addr address)
{
  addrname_calls++;
  return real_addrname (mod, address);
}

/* A module named by its symbol table only (GLib's .dynsym, no debug info:
 * what cc1 is in a build's profile). Every address gets libdwfl's own
 * answer, the function or none (its static functions: module + offset),
 * but libdwfl's lookup, which reads the whole table, is asked once for
 * the addresses the same symbols hold and never where no symbol can name
 * one: it was asked for every address (13108 calls here). */
static void
test_symbol_table_asked_once (void)
{
  ObjectAt at = { (guintptr) g_strdup, NULL, 0 };
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autofree char *empty_dir = mg_test_make_dir ("symbols-asked-once");
  char *debug_path = empty_dir;
  Dwfl_Callbacks callbacks = { .find_elf = dwfl_build_id_find_elf,
                               .find_debuginfo = dwfl_standard_find_debuginfo,
                               .debuginfo_path = &debug_path };
  Dwfl *dwfl = dwfl_begin (&callbacks);
  Dwfl_Module *mod;
  GElf_Addr bias = 0;
  const guint64 span = 64 * 1024;
  guint64 first;
  guint n = 0, named = 0, unnamed = 0;
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  dl_iterate_phdr (object_holding, &at);
  g_assert_nonnull (at.path);
  mg_symbolizer_set_debug_path (symbolizer, empty_dir);
  mod = dwfl_report_elf (dwfl, at.path, at.path, -1, 0, true);
  g_assert_nonnull (mod);
  dwfl_report_end (dwfl, NULL, NULL);
  g_assert_nonnull (dwfl_module_getelf (mod, &bias));
  first = at.address - at.bias - span / 2;
  addrname_calls = 0;
  for (guint64 vaddr = first; vaddr < first + span; vaddr += 5, n++)
    {
      const char *expected = real_addrname (mod, vaddr + bias);
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) frames = mg_symbolizer_resolve (symbolizer, at.path, NULL, 0, vaddr, &error);

      if (expected == NULL)
        {
          g_assert_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_NO_SYMBOLS);
          unnamed++;
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpstr (((MgSymbolFrame *) frames->pdata[frames->len - 1])->function, ==, expected);
      g_hash_table_add (names, (gpointer) expected);
      named++;
    }
  g_test_message ("%u addresses: %u named (%u functions), %u in no symbol; %u lookups in libdwfl",
                  n, named, g_hash_table_size (names), unnamed, addrname_calls);
  /* Both kinds are there: exported functions and static ones. */
  g_assert_cmpuint (g_hash_table_size (names), >, 10);
  g_assert_cmpuint (unnamed, >, 100);
  /* A function holds its addresses in one piece unless other symbols
   * overlap it: a few more lookups than functions at most. */
  g_assert_cmpuint (addrname_calls, <=, 2 * g_hash_table_size (names));
  dwfl_end (dwfl);
  g_free (at.path);
  mg_test_remove_tree (empty_dir);
}

static int
first_object (struct dl_phdr_info *info, size_t size, void *data)
{
  *(guintptr *) data = info->dlpi_addr;
  return 1;
}

/* Resolves COUNT addresses from START on, 7 bytes apart modulo 16 KiB, as
 * seconds; RESOLVED counts those that named a function. */
static double
resolve_range (MgSymbolizer *symbolizer, const char *path, guint64 start, guint count, guint *resolved)
{
  gint64 before = g_get_monotonic_time ();

  *resolved = 0;
  for (guint i = 0; i < count; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) frames = mg_symbolizer_resolve (symbolizer, path, NULL, 0,
                                                            start + (i * 7) % 16384, &error);

      g_assert_cmpuint (frames->len, >=, 1);
      g_assert_true ((error == NULL) == (((MgSymbolFrame *) frames->pdata[frames->len - 1])->function != NULL));
      if (error == NULL)
        (*resolved)++;
    }
  return (g_get_monotonic_time () - before) / 1e6;
}

/* Thousands of addresses of this test program (its code and the symbols
 * library in it): each resolves, and the rate is stated. */
static void
test_rate (void)
{
  /* Every byte of 16 KiB once (7 is prime to 16384). */
  const guint count = 16384;
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);
  guintptr bias = 0;
  guint64 start;
  guint resolved = 0;
  guint resolved_again = 0;
  double seconds;
  double again;
  g_autoptr (GPtrArray) at_main = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (self_path);
  dl_iterate_phdr (first_object, &bias);
  start = (guint64) ((guintptr) mg_symbolizer_resolve - bias);
  /* Without a build-id: the running file is the file. */
  at_main = mg_symbolizer_resolve (symbolizer, self_path, NULL, 0, start, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (((MgSymbolFrame *) at_main->pdata[at_main->len - 1])->function, ==, "mg_symbolizer_resolve");

  seconds = resolve_range (symbolizer, self_path, start, count, &resolved);
  again = resolve_range (symbolizer, self_path, start, count, &resolved_again);
  g_test_message ("%u different addresses over 16 KiB of code in %.3f s: %.0f addresses/s, %u resolved to a function; "
                  "the same again (each address resolved once, then copied): %.3f s, %.0f addresses/s",
                  count, seconds, count / seconds, resolved, again, count / again);
  g_assert_cmpuint (resolved_again, ==, resolved);
  /* The code right after mg_symbolizer_resolve is the test's own and the
   * library's: all of it is described. */
  g_assert_cmpuint (resolved, >, count * 9 / 10);
  g_assert_cmpuint (mg_symbolizer_get_n_modules (symbolizer), ==, 1);
}

/* A frame of our own MPI wrapper (a libmetrograph-* module, built with
 * -g): the wrapper's source line dropped, the MPI function in the MPI
 * library among the process's modules; without them, in the modules
 * opened so far; with neither, "MPI library". A function of another
 * module keeps its file. */
static void
test_own_mpi_frame (void)
{
  guint64 wrap_vaddr, lib_vaddr;
  g_autofree char *wrap = mpi_frame_fixture_module_of ((gpointer) MPI_Barrier, 1, &wrap_vaddr);
  g_autofree char *lib = mpi_frame_fixture_module_of ((gpointer) PMPI_Barrier, 1, &lib_vaddr);
  g_autoptr (MgSymbolizer) alone = mg_symbolizer_new ();
  g_autoptr (MgSymbolizer) told = mg_symbolizer_new ();
  g_autoptr (MgSymbolizer) opened = mg_symbolizer_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (mg_symbolizer_is_own_module (wrap));
  g_assert_false (mg_symbolizer_is_own_module (lib));
  /* The library itself, with its debug info: a file and a line. */
  g_autoptr (GPtrArray) in_lib = mg_symbolizer_resolve (opened, lib, NULL, 0, lib_vaddr, &error);
  g_assert_no_error (error);
  MgSymbolFrame *f = g_ptr_array_index (in_lib, in_lib->len - 1);
  g_assert_cmpstr (f->function, ==, "PMPI_Barrier");
  g_assert_nonnull (f->file);

  mg_symbolizer_add_process_module (told, wrap, NULL, 0);
  mg_symbolizer_add_process_module (told, lib, NULL, 0);
  MgSymbolizer *symbolizers[] = { told, opened, alone };
  const char *modules[] = { lib, lib, "MPI library" };
  for (guint i = 0; i < G_N_ELEMENTS (symbolizers); i++)
    {
      g_autoptr (GPtrArray) frames =
        mg_symbolizer_resolve (symbolizers[i], wrap, NULL, 0, wrap_vaddr, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (frames->len, ==, 1);
      f = g_ptr_array_index (frames, 0);
      g_assert_cmpstr (f->function, ==, "MPI_Barrier");
      g_assert_null (f->file);
      g_assert_cmpuint (f->line, ==, 0);
      g_assert_false (f->inlined);
      g_assert_cmpstr (f->module, ==, modules[i]);
    }
}

/* The ELF address of the function named name in this process's vDSO
 * (0 when it has none), and its build-id into id. */
static guint64
own_vdso_function (const char *name, GByteArray *id)
{
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *) getauxval (AT_SYSINFO_EHDR);
  gsize size = eh->e_shoff + (gsize) eh->e_shnum * eh->e_shentsize;
  g_autofree char *copy = g_memdup2 (eh, size);
  guint64 found = 0;
  const void *bits;
  Elf_Scn *scn = NULL;

  elf_version (EV_CURRENT);
  Elf *elf = elf_memory (copy, size);
  g_assert_nonnull (elf);
  ssize_t len = dwelf_elf_gnu_build_id (elf, &bits);
  g_assert_cmpint (len, >, 0);
  g_byte_array_append (id, bits, (guint) len);
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr sh;
      gelf_getshdr (scn, &sh);
      if (sh.sh_type != SHT_DYNSYM)
        continue;
      Elf_Data *data = elf_getdata (scn, NULL);
      for (gsize i = 0; i < sh.sh_size / sh.sh_entsize; i++)
        {
          GElf_Sym sym;
          gelf_getsym (data, (int) i, &sym);
          if (g_str_equal (elf_strptr (elf, sh.sh_link, sym.st_name), name))
            found = sym.st_value;
        }
    }
  elf_end (elf);
  return found;
}

/* The kernel's vDSO has no file: its frames (clock_gettime's, 43 % of a
 * program that reads the clock in its loop) were left as
 * linux-vdso.so.1+0xbe1, with the advice to install debug symbols. The
 * image of this process's vDSO names them when its build-id is the
 * run's; another kernel's is refused. */
static void
test_vdso (void)
{
  g_autoptr (GByteArray) id = g_byte_array_new ();
  guint64 at = own_vdso_function ("__vdso_clock_gettime", id);
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autoptr (MgSymbolizer) other = mg_symbolizer_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = NULL;
  g_autoptr (GPtrArray) refused = NULL;

  g_assert_cmpuint (at, !=, 0);
  frames = mg_symbolizer_resolve (symbolizer, "linux-vdso.so.1", id->data, id->len, at + 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (frames->len, ==, 1);
  const char *function = ((MgSymbolFrame *) frames->pdata[0])->function;
  g_test_message ("vdso+0x%" G_GINT64_MODIFIER "x: %s", at + 1, function);
  g_assert_true (g_strcmp0 (function, "__vdso_clock_gettime") == 0
                 || g_strcmp0 (function, "clock_gettime") == 0);

  id->data[0] ^= 0xff;
  refused = mg_symbolizer_resolve (other, "linux-vdso.so.1", id->data, id->len, at + 1, &error);
  g_assert_error (error, MG_SYMBOLS_ERROR, MG_SYMBOLS_ERROR_BUILD_ID_MISMATCH);
  g_assert_nonnull (strstr (error->message, "another kernel"));
  g_assert_null (((MgSymbolFrame *) refused->pdata[0])->function);
}

int
main (int argc, char **argv)
{
  /* No debug server is asked here (test-debuginfod serves one). */
  g_unsetenv ("DEBUGINFOD_URLS");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/symbols/inline-chain", test_inline_chain);
  g_test_add_func ("/symbols/cxx-names", test_cxx_names);
  g_test_add_func ("/symbols/cxx-symbol-table", test_cxx_symbol_table);
  g_test_add_func ("/symbols/separate-debug-by-build-id", test_separate_debug_by_build_id);
  g_test_add_func ("/symbols/separate-debug-by-link", test_separate_debug_by_link);
  g_test_add_func ("/symbols/rebuilt-binary", test_rebuilt_binary);
  g_test_add_func ("/symbols/missing-module", test_missing_module);
  g_test_add_func ("/symbols/dynamic-symbols", test_dynamic_symbols);
  g_test_add_func ("/symbols/symbol-table-asked-once", test_symbol_table_asked_once);
  g_test_add_func ("/symbols/rate", test_rate);
  g_test_add_func ("/symbols/own-mpi-frame", test_own_mpi_frame);
  g_test_add_func ("/symbols/vdso", test_vdso);
  return g_test_run ();
}
