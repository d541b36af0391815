/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-xml-read.h"

/* libxml2 reports some errors (a conversion from the declared encoding
 * that fails) through its generic handler whatever XML_PARSE_NOERROR says,
 * which prints them on stderr; they reach the caller through the context's
 * last error. Found by fuzzing (docs/fuzzing.md). */
static void
ignore_generic_error (void *data, const char *format, ...)
{
}

xmlDoc *
mg_xml_read_memory (xmlParserCtxt *context, const char *data, int length, const char *name)
{
  const int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING
                      | XML_PARSE_BIG_LINES;
  xmlDoc *doc;

  /* Per thread in libxml2: the default handler is back after the parse. */
  xmlSetGenericErrorFunc (NULL, ignore_generic_error);
  doc = xmlCtxtReadMemory (context, data, length, name, NULL, options);
  xmlSetGenericErrorFunc (NULL, NULL);
  return doc;
}
