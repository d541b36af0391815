/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A message about a definition file: where, how bad, what is wrong and what
 * to do. Collected in lists instead of failing, so one broken file never
 * stops the others. GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  MG_SEVERITY_NOTE,
  MG_SEVERITY_WARNING,
  MG_SEVERITY_ERROR,
} MgSeverity;

typedef struct {
  char *file;      /* NULL when not about a file */
  int line;        /* 0 when unknown */
  MgSeverity severity;
  char *message;
} MgDiagnostic;

MgDiagnostic *mg_diagnostic_new (const char *file, int line, MgSeverity severity,
                                 const char *message);
void mg_diagnostic_free (MgDiagnostic *diagnostic);
/* Appends to a GPtrArray made with mg_diagnostic_list_new(). */
GPtrArray *mg_diagnostic_list_new (void);
void mg_diagnostic_add (GPtrArray *list, const char *file, int line, MgSeverity severity,
                        const char *format, ...) G_GNUC_PRINTF (5, 6);
const char *mg_severity_to_string (MgSeverity severity);
/* "file:line: severity: message" */
char *mg_diagnostic_to_string (const MgDiagnostic *diagnostic);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgDiagnostic, mg_diagnostic_free)

G_END_DECLS
