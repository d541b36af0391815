/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The HTML subset of partial reports' text fields (app/report/
 * mg-report-markup.c): any bytes up to the first NUL as a text field,
 * parsed once and written as HTML and as text. The sanitised HTML, parsed
 * again as a browser would, must hold only the spec's elements, no event
 * handler and no script URL in an attribute that holds a URL (a title may
 * say anything). */
#include <glib.h>
#include <libxml/HTMLparser.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-input.h"
#include "report/mg-report-markup.h"

/* Seed 000, section 3.6, and the html and body elements the parse adds. */
static const char *const spec_elements[] = {
  "html", "body", "h1", "h2", "h3", "h4", "h5", "h6", "ol", "ul", "li", "span", "div", "p",
  "a", "b", "i", "img", "br",
};

static gboolean
is_spec_element (const xmlChar *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (spec_elements); i++)
    if (g_ascii_strcasecmp ((const char *) name, spec_elements[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Attributes that hold a URL. */
static const char *const url_attributes[] = {
  "href", "src", "srcset", "action", "formaction", "background", "poster", "cite", "data",
  "xlink:href",
};

/* Aborts, so that libFuzzer keeps the input (g_error's trap would not). */
static void G_GNUC_PRINTF (1, 2) G_GNUC_NORETURN
fail (const char *format, ...)
{
  va_list args;

  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
  abort ();
}

static gboolean
is_url_attribute (const xmlChar *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (url_attributes); i++)
    if (g_ascii_strcasecmp ((const char *) name, url_attributes[i]) == 0)
      return TRUE;
  return FALSE;
}

/* A URL that runs code or embeds a document (data: only for pictures). */
static gboolean
is_script_url (const char *value, gboolean image)
{
  g_autofree char *lower = g_ascii_strdown (value, -1);
  const char *p = lower;

  while (*p != '\0' && (guchar) *p <= ' ')
    p++;
  if (g_str_has_prefix (p, "data:"))
    return !image || !g_str_has_prefix (p, "data:image/") || g_str_has_prefix (p, "data:image/svg");
  return g_str_has_prefix (p, "javascript:") || g_str_has_prefix (p, "vbscript:");
}

/* Every element the parse opens, with its attributes (name, value
 * pairs; the values decoded, NULL when there is none). */
static void
check_element (G_GNUC_UNUSED void *user_data, const xmlChar *name, const xmlChar **attrs)
{
  gboolean image = xmlStrcasecmp (name, (const xmlChar *) "img") == 0;

  if (!is_spec_element (name))
    fail ("element <%s> left in the sanitised HTML", (const char *) name);
  for (guint i = 0; attrs != NULL && attrs[i] != NULL; i += 2)
    {
      const char *attr = (const char *) attrs[i], *value = (const char *) attrs[i + 1];

      if (g_ascii_strncasecmp (attr, "on", 2) == 0)
        fail ("event handler %s left in the sanitised HTML", attr);
      if (value != NULL && is_url_attribute (attrs[i]) && is_script_url (value, image))
        fail ("script URL %s=\"%s\" left in the sanitised HTML", attr, value);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *markup = g_strndup ((const char *) data, size);
  g_autoptr(MgReportMarkup) parsed = mg_report_markup_parse (markup);
  g_autofree char *html = mg_report_markup_get_html (parsed);
  g_autofree char *text = mg_report_markup_get_text (parsed);
  /* Only the elements are looked at: the parse builds no tree. */
  htmlSAXHandler check = { .startElement = check_element };

  g_assert (html != NULL && text != NULL);
  if (*html == '\0')
    return 0;
  xmlFreeDoc (htmlSAXParseDoc ((const xmlChar *) html, "UTF-8", &check, NULL));
  xmlResetLastError ();
  return 0;
}
