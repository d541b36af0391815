/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reading the XML files users and plugin authors write (definition files,
 * partial reports): safely, quietly, with every failure a diagnostic that
 * names the file and line. */
#pragma once

#include <glib.h>
#include <libxml/tree.h>

G_BEGIN_DECLS

/* Parses DATA as XML without network access or external entities, and
 * without libxml2 printing anything. On failure adds one error to
 * DIAGNOSTICS naming PATH and the line, followed by ADVICE (may be NULL), and
 * returns NULL; TOO_LARGE is the message for data libxml2 cannot take. */
xmlDoc *mg_xml_document_parse (const char *data, gsize length, const char *path,
                               const char *too_large, const char *advice,
                               GPtrArray *diagnostics);

/* Reads PATH's contents; on failure adds an error to DIAGNOSTICS and
 * returns FALSE. */
gboolean mg_xml_document_read_file (const char *path, char **data, gsize *length,
                                    GPtrArray *diagnostics);

static inline gboolean
mg_xml_is (const xmlNode *node, const char *name)
{
  return xmlStrcmp (node->name, (const xmlChar *) name) == 0;
}

static inline int
mg_xml_line (const xmlNode *node)
{
  return (int) xmlGetLineNo (node);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)

G_END_DECLS
