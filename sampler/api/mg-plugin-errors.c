/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Error reporting and custom data: thin layers over the engine's hooks. The
 * message is formatted on the stack (the record keeps 256 bytes of it), so
 * the metric variants stay async-signal-safe. */
#include "mg-api-internal.h"

#include <stdarg.h>

#include "allinea_metric_plugin_api.h"
#include "mg-safe-format.h"
#include "mg-sampler-hooks.h"

#define MG_MESSAGE_SIZE 256

/* The message a ...f call formats (empty without a format), cut at
 * MG_MESSAGE_SIZE. Async-signal-safe. */
static void
format_message (char message[MG_MESSAGE_SIZE], const char *format, va_list ap)
{
  message[0] = '\0';
  if (format)
    mg_safe_vsnprintf (message, MG_MESSAGE_SIZE, format, ap);
}

MG_API void
allinea_set_plugin_error_message (plugin_id_t plugin_id, int error_code,
                                  const char *error_message)
{
  mg_hook_plugin_error (plugin_id, error_code, error_message ? error_message : "");
}

MG_API void
allinea_set_plugin_error_messagef (plugin_id_t plugin_id, int error_code,
                                   const char *error_message, ...)
{
  char message[MG_MESSAGE_SIZE];
  va_list ap;
  va_start (ap, error_message);
  format_message (message, error_message, ap);
  va_end (ap);
  mg_hook_plugin_error (plugin_id, error_code, message);
}

MG_API void
allinea_set_metric_error_message (metric_id_t metric_id, int error_code,
                                  const char *error_message)
{
  mg_hook_metric_error (metric_id, error_code, error_message ? error_message : "");
}

MG_API void
allinea_set_metric_error_messagef (metric_id_t metric_id, int error_code,
                                   const char *error_message, ...)
{
  char message[MG_MESSAGE_SIZE];
  va_list ap;
  va_start (ap, error_message);
  format_message (message, error_message, ap);
  va_end (ap);
  mg_hook_metric_error (metric_id, error_code, message);
}

MG_API const char *
allinea_get_custom_data (metric_id_t metricId)
{
  const char *data = mg_hook_custom_data (metricId);
  return data ? data : "";
}
