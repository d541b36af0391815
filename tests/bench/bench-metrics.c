/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark of the built-in metrics: reads every built-in definition file
 * in <build>/plugins, loads each plugin whose initialisation succeeds
 * on this machine, then calls every getter of every metric once per
 * sampling round for many rounds and prints the cost of one round.
 * Usage: bench-metrics [ROUNDS [breakdown]]  (MG_BUILD_ROOT names the build
 * tree; "breakdown" also prints the cost of each getter).
 *
 * The MPI plugin initialises only in an MPI program with the wrapper
 * loaded: where OpenMPI was found at configure time this program is linked
 * with libmpi (MPI is never initialised) and loads the wrapper globally, so
 * that the MPI getters are measured too. */
#include <dlfcn.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins-test-support.h"

#ifdef MG_BENCH_WITH_MPI
#include <mpi.h>
#endif

typedef struct {
  char *metric;
  char *plugin;       /* "metrograph-cpu" for libmetrograph-cpu.so */
  char *getter;
  gboolean is_double;
  char *custom_data;
} Getter;

/* What the parser of one definition file collects. */
typedef struct {
  GPtrArray *getters;      /* Getter*, their plugin still a source id */
  GHashTable *libraries;   /* source id -> library file name */
  Getter *metric;          /* the <metric> being read */
  char *source_id;         /* the <source> being read */
  const char *element;     /* the element whose text is wanted */
} Parse;

static void
getter_free (gpointer data)
{
  Getter *g = data;
  g_free (g->metric);
  g_free (g->plugin);
  g_free (g->getter);
  g_free (g->custom_data);
  g_free (g);
}

static const char *
attribute (const char **names, const char **values, const char *name)
{
  for (int i = 0; names[i]; i++)
    if (g_str_equal (names[i], name))
      return values[i];
  return NULL;
}

static void
start_element (GMarkupParseContext *context, const char *name, const char **names,
               const char **values, gpointer data, GError **error)
{
  Parse *p = data;
  p->element = NULL;
  if (g_str_equal (name, "metric") && attribute (names, values, "id"))
    {
      p->metric = g_new0 (Getter, 1);
      p->metric->metric = g_strdup (attribute (names, values, "id"));
    }
  else if (g_str_equal (name, "source") && p->metric)
    {
      p->metric->plugin = g_strdup (attribute (names, values, "ref"));
      p->metric->getter = g_strdup (attribute (names, values, "functionName"));
      p->metric->custom_data = g_strdup (attribute (names, values, "customData"));
    }
  else if (g_str_equal (name, "source"))
    {
      g_free (p->source_id);
      p->source_id = g_strdup (attribute (names, values, "id"));
    }
  else if (g_str_equal (name, "dataType") || g_str_equal (name, "sharedLibrary"))
    p->element = name;
}

static void
end_element (GMarkupParseContext *context, const char *name, gpointer data, GError **error)
{
  Parse *p = data;
  p->element = NULL;
  if (g_str_equal (name, "metric") && p->metric)
    {
      if (p->metric->plugin && p->metric->getter)
        g_ptr_array_add (p->getters, p->metric);
      else
        getter_free (p->metric);
      p->metric = NULL;
    }
}

static void
text (GMarkupParseContext *context, const char *text, gsize len, gpointer data,
      GError **error)
{
  Parse *p = data;
  if (p->element == NULL)
    return;
  g_autofree char *value = g_strstrip (g_strndup (text, len));
  if (g_str_equal (p->element, "dataType") && p->metric)
    p->metric->is_double = g_str_equal (value, "double");
  else if (g_str_equal (p->element, "sharedLibrary") && p->source_id)
    g_hash_table_insert (p->libraries, g_strdup (p->source_id), g_steal_pointer (&value));
}

/* Every metric of the built-in definition files, with its plugin's name. */
static GPtrArray *
read_definitions (void)
{
  g_autofree char *dir_path = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "plugins", NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_assert_nonnull (dir);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  for (const char *name; (name = g_dir_read_name (dir));)
    if (g_str_has_suffix (name, ".xml"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  Parse p = { g_ptr_array_new_with_free_func (getter_free),
              g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free) };
  static const GMarkupParser parser = { start_element, end_element, text, NULL, NULL };
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir_path, g_ptr_array_index (names, i), NULL);
      g_autofree char *contents = NULL;
      gsize length;
      g_autoptr (GError) error = NULL;
      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      GMarkupParseContext *context = g_markup_parse_context_new (&parser, 0, &p, NULL);
      if (!g_markup_parse_context_parse (context, contents, (gssize) length, &error)
          || !g_markup_parse_context_end_parse (context, &error))
        g_error ("%s: %s", path, error->message);
      g_markup_parse_context_free (context);
    }
  for (guint i = 0; i < p.getters->len; i++)
    {
      Getter *g = g_ptr_array_index (p.getters, i);
      const char *library = g_hash_table_lookup (p.libraries, g->plugin);
      g_assert_nonnull (library);
      g_assert_true (g_str_has_prefix (library, "lib") && g_str_has_suffix (library, ".so"));
      g_free (g->plugin);
      g->plugin = g_strndup (library + 3, strlen (library) - 6);
    }
  g_free (p.source_id);
  g_hash_table_destroy (p.libraries);
  return p.getters;
}

/* Loads the MPI wrapper globally, as LD_PRELOAD would, where this program
 * is linked with libmpi: the MPI plugin then finds both. The wrapper
 * alone (tests/plugins/meson.build), since this program provides the
 * allinea_* API that the sampler, which carries the wrapper, would. */
static void
load_mpi_wrapper (void)
{
#ifdef MG_BENCH_WITH_MPI
  /* A reference to libmpi, which the linker would otherwise drop as
   * unused (MPI_Initialized may be called before MPI_Init). */
  int initialised = 0;
  MPI_Initialized (&initialised);
  g_autofree char *wrapper = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "tests", "plugins",
                                               "libmg-test-mpi-wrap.so", NULL);
  if (dlopen (wrapper, RTLD_NOW | RTLD_GLOBAL) == NULL)
    printf ("MPI wrapper not loaded: %s\n", dlerror ());
#endif
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 20000;
  /* A second argument "breakdown" also times each getter. */
  gboolean breakdown = argc > 2 && g_str_equal (argv[2], "breakdown");
  g_autoptr (GPtrArray) getters = read_definitions ();
  guint n = getters->len;
  g_assert_cmpuint (n, <=, MG_TEST_MAX_METRICS);
  g_autofree gpointer *fns = g_new0 (gpointer, n);
  g_autofree gint64 *spent = g_new0 (gint64, n);
  GHashTable *status = g_hash_table_new (g_str_hash, g_str_equal);
  int active = 0, n_plugins = 0;
  load_mpi_wrapper ();

  for (guint i = 0; i < n; i++)
    {
      const Getter *g = g_ptr_array_index (getters, i);
      if (!g_hash_table_contains (status, g->plugin))
        {
          void *plugin = plugins_test_load_plugin (g->plugin);
          int ok = plugins_test_init_plugin (plugin, i) == 0;
          if (!ok)
            printf ("%-22s unavailable: %s\n", g->plugin, plugins_test_plugin_error (NULL));
          g_hash_table_insert (status, g->plugin, ok ? plugin : NULL);
          n_plugins += ok;
        }
      void *plugin = g_hash_table_lookup (status, g->plugin);
      if (plugin == NULL)
        continue;
      plugins_test_set_custom_data (i, g->custom_data);
      fns[i] = plugins_test_symbol (plugin, g->getter);
      active++;
    }

  /* Sample times 20 ms apart, as the sampler's default rate gives. The
   * rounds run in 10 batches: on a shared machine the best and median
   * batch say more than the mean, which other processes inflate. */
  struct timespec t = plugins_test_now ();
  int failures = 0;
  double batch_us[10];
  int per_batch = MAX (rounds / 10, 1);
  for (int b = 0; b < 10; b++)
    {
      gint64 start = g_get_monotonic_time ();
      for (int r = 0; r < per_batch; r++)
        {
          t.tv_nsec += 20000000;
          if (t.tv_nsec >= 1000000000)
            t.tv_sec++, t.tv_nsec -= 1000000000;
          for (guint i = 0; i < n; i++)
            {
              if (fns[i] == NULL)
                continue;
              const Getter *g = g_ptr_array_index (getters, i);
              struct timespec ts = t;
              uint64_t u;
              double d;
              gint64 before = breakdown ? g_get_monotonic_time () : 0;
              int res = g->is_double ? ((PluginsTestDoubleGetter) fns[i]) (i, &ts, &d)
                                     : ((PluginsTestIntGetter) fns[i]) (i, &ts, &u);
              if (breakdown)
                spent[i] += g_get_monotonic_time () - before;
              failures += res != 0;
            }
        }
      batch_us[b] = (double) (g_get_monotonic_time () - start) / per_batch;
    }
  rounds = per_batch * 10;
  double mean = 0;
  for (int b = 0; b < 10; b++)
    mean += batch_us[b] / 10;
  qsort (batch_us, 10, sizeof batch_us[0], compare_doubles);
  for (guint i = 0; breakdown && i < n; i++)
    if (fns[i])
      {
        const Getter *g = g_ptr_array_index (getters, i);
        printf ("  %-16s %-40s %6.2f us\n", g->plugin + 11, g->metric,
                (double) spent[i] / rounds);
      }
  printf ("built-in metrics: %d of %u getters in %d of %u plugins active, %d rounds: "
          "%.2f us per round (median of 10 batches; best %.2f, mean %.2f; "
          "target < 50 us)%s\n",
          active, n, n_plugins, g_hash_table_size (status), rounds,
          (batch_us[4] + batch_us[5]) / 2, batch_us[0], mean,
          failures ? " - some getters failed" : "");
  g_hash_table_destroy (status);
  return failures ? 1 : 0;
}
