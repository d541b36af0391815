/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one way Metrograph's XML files (metric definitions, partial reports)
 * are parsed: they may come from anywhere. GTK-free. */
#pragma once

#include <libxml/parser.h>

/* Parses @length bytes of @data with @context (@name stands for the file
 * in libxml2's errors): no network, no external entities, line numbers
 * past 65535, and nothing printed by libxml2; its errors stay in the
 * context (xmlCtxtGetLastError, context->wellFormed). */
xmlDoc *mg_xml_read_memory (xmlParserCtxt *context, const char *data, int length,
                            const char *name);
