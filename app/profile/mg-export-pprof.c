/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pprof export: profile.proto's Profile message (field numbers from
 * its published schema) built in memory, then gzip-compressed into the
 * file. A location is one (module, address) of a frame, its lines the
 * frame's names innermost first (pprof's order for inlined code); a
 * function is one (name, file). */
#include "mg-config.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "mg-export-folded.h"
#include "mg-export-pprof.h"
#include "mg-profile-threads.h"
#include "mg-protobuf.h"
#include "mg-stack-set.h"

/* profile.proto's field numbers. */
enum {
  PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3, PROFILE_LOCATION = 4,
  PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6, PROFILE_TIME_NANOS = 9,
  PROFILE_DURATION_NANOS = 10, PROFILE_PERIOD_TYPE = 11, PROFILE_PERIOD = 12,
  VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2,
  SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3,
  LABEL_KEY = 1, LABEL_STR = 2, LABEL_NUM = 3,
  MAPPING_ID = 1, MAPPING_MEMORY_LIMIT = 3, MAPPING_FILENAME = 5, MAPPING_BUILD_ID = 6,
  MAPPING_HAS_FUNCTIONS = 7,
  MAPPING_HAS_FILENAMES = 8, MAPPING_HAS_LINE_NUMBERS = 9, MAPPING_HAS_INLINE_FRAMES = 10,
  LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_ADDRESS = 3, LOCATION_LINE = 4,
  LINE_FUNCTION_ID = 1, LINE_LINE = 2,
  FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3, FUNCTION_FILENAME = 4,
};

typedef struct {
  GByteArray *out;          /* the Profile message so far, but its string table */
  GHashTable *strings;      /* string → index + 1 */
  GPtrArray *string_list;   /* index → string; 0 is "" */
  GHashTable *functions;    /* "name\nfile" → id */
  GHashTable *locations;    /* "module vaddr return" → id */
  const MgStackSet *set;
  const MgStackNamer *namer;
  const char *thread;       /* the samples' thread label, or NULL: none */
  int ordinal;              /* its ordinal */
} Encoder;

/* profile.proto's strings are proto3 strings, which readers check to be
 * UTF-8 (protoc and the protobuf libraries refuse the whole file
 * otherwise): a name or path of bytes that are not (a program called
 * caf\xe9) is written with U+FFFD for them, as the thread labels are. */
static guint64
string_index (Encoder *e, const char *s)
{
  if (s == NULL || *s == '\0')
    return 0;
  g_autofree char *valid = g_utf8_make_valid (s, -1);
  gpointer v = g_hash_table_lookup (e->strings, valid);
  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  char *copy = g_steal_pointer (&valid);
  g_ptr_array_add (e->string_list, copy);
  g_hash_table_insert (e->strings, copy, GUINT_TO_POINTER (e->string_list->len));
  return e->string_list->len - 1;
}

static void
add_message (GByteArray *out, guint field, GByteArray *message)
{
  mg_protobuf_bytes (out, field, message->data, message->len);
}

static void
add_value_type (Encoder *e, guint field, const char *type, const char *unit)
{
  g_autoptr (GByteArray) m = g_byte_array_new ();
  mg_protobuf_varint (m, VALUE_TYPE_TYPE, string_index (e, type));
  mg_protobuf_varint (m, VALUE_TYPE_UNIT, string_index (e, unit));
  add_message (e->out, field, m);
}

static guint64
function_id (Encoder *e, const char *name, const char *file)
{
  g_autofree char *key = g_strdup_printf ("%s\n%s", name, file != NULL ? file : "");
  gpointer v = g_hash_table_lookup (e->functions, key);
  if (v != NULL)
    return GPOINTER_TO_UINT (v);
  guint64 id = g_hash_table_size (e->functions) + 1;
  g_hash_table_insert (e->functions, g_steal_pointer (&key), GUINT_TO_POINTER (id));
  g_autoptr (GByteArray) m = g_byte_array_new ();
  mg_protobuf_varint (m, FUNCTION_ID, id);
  mg_protobuf_varint (m, FUNCTION_NAME, string_index (e, name));
  mg_protobuf_varint (m, FUNCTION_SYSTEM_NAME, string_index (e, name));
  mg_protobuf_varint (m, FUNCTION_FILENAME, string_index (e, file));
  add_message (e->out, PROFILE_FUNCTION, m);
  return id;
}

/* A location of its own for a walk's marked end ("[truncated]"). */
static guint64
marker_location (Encoder *e, const char *name)
{
  gpointer v = g_hash_table_lookup (e->locations, name);
  if (v != NULL)
    return GPOINTER_TO_UINT (v);
  guint64 id = g_hash_table_size (e->locations) + 1;
  g_hash_table_insert (e->locations, g_strdup (name), GUINT_TO_POINTER (id));
  g_autoptr (GByteArray) line = g_byte_array_new ();
  mg_protobuf_varint (line, LINE_FUNCTION_ID, function_id (e, name, NULL));
  g_autoptr (GByteArray) m = g_byte_array_new ();
  mg_protobuf_varint (m, LOCATION_ID, id);
  add_message (m, LOCATION_LINE, line);
  add_message (e->out, PROFILE_LOCATION, m);
  return id;
}

static guint64
location_id (Encoder *e, const MgStackFrame *frame, gboolean return_address)
{
  g_autofree char *key = g_strdup_printf ("%u %" G_GINT64_MODIFIER "x %d", frame->module,
                                          frame->vaddr, return_address);
  gpointer v = g_hash_table_lookup (e->locations, key);
  if (v != NULL)
    return GPOINTER_TO_UINT (v);
  guint64 id = g_hash_table_size (e->locations) + 1;
  g_hash_table_insert (e->locations, g_steal_pointer (&key), GUINT_TO_POINTER (id));
  g_autoptr (GByteArray) m = g_byte_array_new ();
  mg_protobuf_varint (m, LOCATION_ID, id);
  if (frame->module != MG_STACK_MODULE_UNKNOWN)
    mg_protobuf_varint (m, LOCATION_MAPPING_ID, (guint64) frame->module + 1);
  mg_protobuf_varint (m, LOCATION_ADDRESS, frame->vaddr);
  g_autoptr (GPtrArray) names = mg_stack_frame_names (e->set, frame, return_address, e->namer);
  /* Outermost first from mg_stack_frame_names; pprof lists the inlined
   * innermost first, the function they were inlined into last. */
  for (guint i = names->len; i-- > 0;)
    {
      const MgStackFrameName *n = g_ptr_array_index (names, i);
      g_autoptr (GByteArray) line = g_byte_array_new ();
      mg_protobuf_varint (line, LINE_FUNCTION_ID, function_id (e, n->label, n->file));
      mg_protobuf_varint (line, LINE_LINE, n->line);
      add_message (m, LOCATION_LINE, line);
    }
  add_message (e->out, PROFILE_LOCATION, m);
  return id;
}

static void
add_mappings (Encoder *e)
{
  for (guint i = 0; i < mg_stack_set_get_n_modules (e->set); i++)
    {
      const MgStackModule *module = mg_stack_set_get_module (e->set, i);
      g_autoptr (GByteArray) m = g_byte_array_new ();
      g_autoptr (GString) build_id = g_string_new (NULL);
      for (gsize k = 0; k < module->build_id_len; k++)
        g_string_append_printf (build_id, "%02x", module->build_id[k]);
      mg_protobuf_varint (m, MAPPING_ID, i + 1);
      /* Locations hold ELF virtual addresses, the same in every process
       * (each loaded the module elsewhere): the mapping spans the whole
       * address space from 0, offset 0, pprof's form for addresses that
       * need no adjustment, so that each location is within its mapping
       * and a tool that disassembles or symbolises from the file uses
       * them as they are. */
      mg_protobuf_varint (m, MAPPING_MEMORY_LIMIT, G_MAXUINT64);
      mg_protobuf_varint (m, MAPPING_FILENAME, string_index (e, module->path));
      mg_protobuf_varint (m, MAPPING_BUILD_ID, string_index (e, build_id->str));
      gboolean named = e->namer != NULL;
      mg_protobuf_varint (m, MAPPING_HAS_FUNCTIONS, named);
      mg_protobuf_varint (m, MAPPING_HAS_FILENAMES, named);
      mg_protobuf_varint (m, MAPPING_HAS_LINE_NUMBERS, named);
      mg_protobuf_varint (m, MAPPING_HAS_INLINE_FRAMES, named);
      add_message (e->out, PROFILE_MAPPING, m);
    }
}

static void
add_sample (Encoder *e, guint stack)
{
  guint n, flags;
  const MgStackFrame *frames = mg_stack_set_get_frames (e->set, stack, &n, &flags);
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  /* The leaf first, as pprof wants. */
  for (guint f = 0; f < n; f++)
    {
      guint64 id = location_id (e, &frames[f], f > 0);
      g_array_append_val (ids, id);
    }
  if (flags & (MG_STACK_TRUNCATED | MG_STACK_UNKNOWN_FRAME))
    {
      guint64 id = marker_location (e, flags & MG_STACK_TRUNCATED ? "[truncated]" : "[unknown]");
      g_array_append_val (ids, id);
    }
  guint64 count = mg_stack_set_get_count (e->set, stack);
  g_autoptr (GByteArray) m = g_byte_array_new ();
  mg_protobuf_packed (m, SAMPLE_LOCATION_ID, (const guint64 *) ids->data, ids->len);
  mg_protobuf_packed (m, SAMPLE_VALUE, &count, 1);
  if (e->thread != NULL)
    {
      /* Labels "thread" (its name) and "thread_ordinal" (its number). */
      g_autoptr (GByteArray) name = g_byte_array_new ();
      mg_protobuf_varint (name, LABEL_KEY, string_index (e, "thread"));
      mg_protobuf_varint (name, LABEL_STR, string_index (e, e->thread));
      add_message (m, SAMPLE_LABEL, name);
      g_autoptr (GByteArray) number = g_byte_array_new ();
      mg_protobuf_varint (number, LABEL_KEY, string_index (e, "thread_ordinal"));
      mg_protobuf_varint (number, LABEL_NUM, (guint64) e->ordinal);
      add_message (m, SAMPLE_LABEL, number);
    }
  add_message (e->out, PROFILE_SAMPLE, m);
}

/* Thread ordinal's label: the name the selected processes give it, else "main thread" or
 * "thread N" (no name, or names that differ). */
static char *
thread_label (MgProfile *profile, const gboolean *processes, int ordinal)
{
  const char *found = NULL;
  gboolean differ = FALSE;
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      if (processes != NULL && !processes[p])
        continue;
      const char *name = mg_profile_get_thread_name (profile, p, (guint) ordinal, NULL);
      if (name == NULL || *name == '\0')
        continue;
      differ |= found != NULL && strcmp (found, name) != 0;
      found = name;
    }
  if (found != NULL && !differ)
    return g_strdup (found);
  return ordinal == 0 ? g_strdup ("main thread") : g_strdup_printf ("thread %d", ordinal);
}

/* The samples of each thread, labelled with it; FALSE (nothing added)
 * when the threads' stacks do not make up the selection's (stacks that
 * do not say their thread: then the samples go unlabelled). */
static gboolean
add_thread_samples (Encoder *e, MgProfile *profile, const gboolean *processes, double start_s,
                    double end_s)
{
  guint n_threads = mg_stack_set_get_n_threads (e->set);
  GPtrArray *sets = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_stack_set_free);
  guint64 sum = 0;
  for (guint t = 0; t < n_threads; t++)
    {
      MgStackSet *one = mg_stack_set_new_for_processes_thread (profile, processes, (int) t,
                                                              start_s, end_s);
      sum += mg_stack_set_get_total (one);
      g_ptr_array_add (sets, one);
    }
  gboolean whole = n_threads > 0 && sum == mg_stack_set_get_total (e->set);
  for (guint t = 0; whole && t < n_threads; t++)
    {
      const MgStackSet *one = g_ptr_array_index (sets, t);
      g_autofree char *label = thread_label (profile, processes, (int) t);
      const MgStackSet *all = e->set;
      e->set = one;
      e->thread = label;
      e->ordinal = (int) t;
      for (guint s = 0; s < mg_stack_set_get_n_stacks (one); s++)
        if (mg_stack_set_get_count (one, s) > 0)
          add_sample (e, s);
      e->set = all;
      e->thread = NULL;
    }
  g_ptr_array_unref (sets);
  return whole;
}

/* time_nanos and duration_nanos: the part of the run the export covers,
 * the run's start to its end, or --range's (start_s, end_s] within it;
 * wall-clock nanoseconds since the Unix epoch for the former. */
static void
add_span (Encoder *e, MgProfile *profile, double start_s, double end_s)
{
  const MgRunInfo *run = mg_profile_get_run_info (profile);
  double from = MAX (start_s, 0.0), to = MIN (end_s, run->duration_s);

  if (run->start_time_us > 0)
    mg_protobuf_varint (e->out, PROFILE_TIME_NANOS,
                        (guint64) run->start_time_us * 1000 + (guint64) llround (from * 1e9));
  if (to > from)
    mg_protobuf_varint (e->out, PROFILE_DURATION_NANOS, (guint64) llround ((to - from) * 1e9));
}

static gboolean
write_gzip (const char *path, GByteArray *data, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileOutputStream) raw = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE,
                                                      NULL, error);
  if (raw == NULL)
    return FALSE;
  g_autoptr (GZlibCompressor) gzip = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
  g_autoptr (GOutputStream) out = g_converter_output_stream_new (G_OUTPUT_STREAM (raw),
                                                                G_CONVERTER (gzip));
  /* Closing the converter flushes the gzip trailer and closes the file,
   * which replaces path only now. */
  return g_output_stream_write_all (out, data->data, data->len, NULL, NULL, error)
         && g_output_stream_close (out, NULL, error);
}

gboolean
mg_export_pprof (MgProfile *profile, const char *path, const gboolean *processes,
                  double start_s,
                 double end_s, const MgStackNamer *namer, GError **error)
{
  if (!mg_profile_read_stacks (profile, error))
    return FALSE;
  g_autoptr (MgStackSet) set = mg_stack_set_new_for_processes (profile, processes, start_s,
                                                                end_s);
  g_autoptr (GHashTable) strings = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) string_list = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            NULL);
  g_autoptr (GHashTable) locations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            NULL);
  g_autoptr (GByteArray) out = g_byte_array_new ();
  Encoder e = { out, strings, string_list, functions, locations, set, namer, NULL, 0 };

  g_ptr_array_add (string_list, g_strdup ("")); /* index 0, as profile.proto requires */
  add_value_type (&e, PROFILE_SAMPLE_TYPE, "samples", "count");
  add_mappings (&e);
  if (!add_thread_samples (&e, profile, processes, start_s, end_s))
    for (guint s = 0; s < mg_stack_set_get_n_stacks (set); s++)
      if (mg_stack_set_get_count (set, s) > 0)
        add_sample (&e, s);
  add_span (&e, profile, start_s, end_s);
  add_value_type (&e, PROFILE_PERIOD_TYPE, "samples", "count");
  mg_protobuf_varint (out, PROFILE_PERIOD, 1);
  for (guint i = 0; i < string_list->len; i++)
    {
      const char *s = g_ptr_array_index (string_list, i);
      mg_protobuf_bytes (out, PROFILE_STRING_TABLE, s, strlen (s));
    }
  return write_gzip (path, out, error);
}
