/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-xml-document.h"

#include <glib/gi18n.h>
#include <libxml/parser.h>

#include "mg-diagnostic.h"

/* libxml2 reports some errors (a conversion from the declared encoding
 * that fails) through its generic handler whatever XML_PARSE_NOERROR says,
 * which prints them on stderr; they reach the diagnostics through the
 * context's last error. Found by fuzzing (docs/fuzzing.md). */
static void
ignore_generic_error (void *data, const char *format, ...)
{
}

static void
add_xml_error (xmlParserCtxt *context, const char *path, const char *advice,
               GPtrArray *diagnostics)
{
  const xmlError *xml_error = xmlCtxtGetLastError (context);
  g_autofree char *message = NULL;
  g_autofree char *what = NULL;

  if (xml_error != NULL && xml_error->message != NULL)
    message = g_strstrip (g_strdup (xml_error->message));
  what = g_strdup_printf (_("not well-formed XML (%s)"),
                          message != NULL ? message : _("unknown error"));
  mg_diagnostic_add (diagnostics, path, xml_error != NULL ? xml_error->line : 0,
                     MG_SEVERITY_ERROR, "%s%s%s", what, advice != NULL ? "; " : "",
                     advice != NULL ? advice : "");
}

xmlDoc *
mg_xml_document_parse (const char *data, gsize length, const char *path,
                       const char *too_large, const char *advice, GPtrArray *diagnostics)
{
  /* No network, no external DTD or entities: files may come from anywhere. */
  const int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING
                      | XML_PARSE_BIG_LINES;
  xmlParserCtxt *context;
  xmlDoc *doc;

  g_return_val_if_fail (data != NULL && path != NULL && diagnostics != NULL, NULL);

  if (length > G_MAXINT)
    {
      mg_diagnostic_add (diagnostics, path, 0, MG_SEVERITY_ERROR, "%s", too_large);
      return NULL;
    }
  context = xmlNewParserCtxt ();
  /* Per thread in libxml2: the default handler is back after the parse. */
  xmlSetGenericErrorFunc (NULL, ignore_generic_error);
  doc = xmlCtxtReadMemory (context, data, (int) length, path, NULL, options);
  xmlSetGenericErrorFunc (NULL, NULL);
  if (doc == NULL || !context->wellFormed)
    {
      add_xml_error (context, path, advice, diagnostics);
      g_clear_pointer (&doc, xmlFreeDoc);
    }
  xmlFreeParserCtxt (context);
  return doc;
}

gboolean
mg_xml_document_read_file (const char *path, char **data, gsize *length,
                           GPtrArray *diagnostics)
{
  g_autoptr (GError) error = NULL;

  if (g_file_get_contents (path, data, length, &error))
    return TRUE;
  mg_diagnostic_add (diagnostics, path, 0, MG_SEVERITY_ERROR, "%s", error->message);
  return FALSE;
}
