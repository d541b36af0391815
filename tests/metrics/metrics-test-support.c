/* Support shared by the built-in metric tests and benchmark. */
#include "metrics-test-support.h"

#include <dlfcn.h>
#include <string.h>

#include "mg-sampler-hooks.h"

static const char *custom_data[MG_TEST_MAX_METRICS];
static char plugin_error[1024];
static int plugin_error_code;
static char metric_errors[MG_TEST_MAX_METRICS][512];

void
mg_hook_plugin_error (plugin_id_t plugin, int code, const char *message)
{
  g_strlcpy (plugin_error, message, sizeof plugin_error);
  plugin_error_code = code;
}

void
mg_hook_metric_error (metric_id_t metric, int code, const char *message)
{
  if (metric < MG_TEST_MAX_METRICS)
    g_strlcpy (metric_errors[metric], message, sizeof metric_errors[metric]);
}

const char *
mg_hook_custom_data (metric_id_t metric)
{
  if (metric < MG_TEST_MAX_METRICS && custom_data[metric])
    return custom_data[metric];
  return "";
}

const char *
mg_hook_config_env (const char *metric_id)
{
  return NULL;
}

void
mg_test_set_custom_data (metric_id_t id, const char *data)
{
  g_assert_cmpuint (id, <, MG_TEST_MAX_METRICS);
  custom_data[id] = data;
}

const char *
mg_test_plugin_error (int *code)
{
  if (code)
    *code = plugin_error_code;
  return plugin_error;
}

const char *
mg_test_metric_error (metric_id_t id)
{
  g_assert_cmpuint (id, <, MG_TEST_MAX_METRICS);
  return metric_errors[id];
}

void
mg_test_clear_errors (void)
{
  plugin_error[0] = '\0';
  plugin_error_code = 0;
  memset (metric_errors, 0, sizeof metric_errors);
}

void *
mg_test_load_plugin (const char *name)
{
  const char *root = g_getenv ("MG_BUILD_ROOT");
  g_assert_nonnull (root);
  g_autofree char *file = g_strdup_printf ("lib%s.so", name);
  g_autofree char *path = g_build_filename (root, "data", "metrics", file, NULL);
  void *handle = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL)
    g_error ("cannot load %s: %s", path, dlerror ());
  return handle;
}

int
mg_test_init_plugin (void *plugin, plugin_id_t id)
{
  MgTestInitFn init = (MgTestInitFn) mg_test_symbol (plugin, "allinea_plugin_initialize");
  return init (id, NULL);
}

gpointer
mg_test_symbol (void *plugin, const char *name)
{
  gpointer sym = dlsym (plugin, name);
  if (sym == NULL)
    g_error ("plugin has no symbol %s", name);
  return sym;
}

struct timespec
mg_test_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts;
}
