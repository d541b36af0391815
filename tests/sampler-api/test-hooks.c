/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "test-hooks.h"

TestHooks test_hooks;

void
mg_hook_plugin_error (plugin_id_t plugin, int code, const char *message)
{
  test_hooks.plugin_calls++;
  test_hooks.plugin = plugin;
  test_hooks.plugin_code = code;
  strncpy (test_hooks.plugin_message, message, sizeof test_hooks.plugin_message - 1);
}

void
mg_hook_metric_error (metric_id_t metric, int code, const char *message)
{
  test_hooks.metric_calls++;
  test_hooks.metric = metric;
  test_hooks.metric_code = code;
  strncpy (test_hooks.metric_message, message, sizeof test_hooks.metric_message - 1);
}

const char *
mg_hook_custom_data (metric_id_t metric)
{
  return test_hooks.custom_data;
}

const char *
mg_hook_config_env (const char *metric_id)
{
  if (test_hooks.config_metric_id && strcmp (metric_id, test_hooks.config_metric_id) == 0)
    return test_hooks.config_env;
  return NULL;
}
