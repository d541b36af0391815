/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Text fields of partial reports, parsed with libxml2's HTML parser and
 * written back through an allow-list. */
#include "mg-config.h"

#include <libxml/HTMLparser.h>
#include <string.h>

#include "mg-report-markup.h"

static const char *const allowed_elements[] = {
  "h1", "h2", "h3", "h4", "h5", "h6", "ol", "ul", "li", "span", "div", "p", "a", "b", "i",
  "img", "br",
};
/* Dropped with everything inside them. */
static const char *const dropped_elements[] = {
  "script", "style", "iframe", "frame", "frameset", "object", "applet", "noscript",
  "template", "svg", "math", "head", "title", "textarea", "select", "option", "button",
  "audio", "video", "canvas", "xml",
};
static const char *const block_elements[] = {
  "h1", "h2", "h3", "h4", "h5", "h6", "ol", "ul", "li", "div", "p", "br",
};

static gboolean
in_list (const xmlChar *name, const char *const *list, guint n)
{
  for (guint i = 0; i < n; i++)
    if (g_ascii_strcasecmp ((const char *) name, list[i]) == 0)
      return TRUE;
  return FALSE;
}

#define IN(name, list) in_list ((name), (list), G_N_ELEMENTS (list))

/* http(s), or relative (no scheme before the first '/', '?' or '#');
 * for images also data: pictures other than SVG. */
static gboolean
url_allowed (const char *url, gboolean image)
{
  const char *p = url;
  size_t scheme;

  while (*p != '\0' && (g_ascii_isspace (*p) || (guchar) *p < 0x20))
    p++;
  scheme = strcspn (p, ":/?#");
  if (p[scheme] != ':')
    return TRUE;
  if (g_ascii_strncasecmp (p, "http:", 5) == 0 || g_ascii_strncasecmp (p, "https:", 6) == 0)
    return TRUE;
  if (image && g_ascii_strncasecmp (p, "data:image/", 11) == 0)
    return g_ascii_strncasecmp (p + 11, "svg", 3) != 0;
  return FALSE;
}

static gboolean
attribute_allowed (const xmlChar *element, const xmlChar *name, const char *value)
{
  const char *e = (const char *) element, *n = (const char *) name;

  if (g_ascii_strcasecmp (n, "title") == 0)
    return TRUE;
  if (g_ascii_strcasecmp (e, "a") == 0 && g_ascii_strcasecmp (n, "href") == 0)
    return url_allowed (value, FALSE);
  if (g_ascii_strcasecmp (e, "img") == 0)
    {
      if (g_ascii_strcasecmp (n, "src") == 0)
        return url_allowed (value, TRUE);
      return g_ascii_strcasecmp (n, "alt") == 0 || g_ascii_strcasecmp (n, "width") == 0
             || g_ascii_strcasecmp (n, "height") == 0;
    }
  return FALSE;
}

static void
append_escaped (GString *out, const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  g_string_append (out, escaped);
}

static void
write_html (GString *out, const xmlNode *node)
{
  for (; node != NULL; node = node->next)
    {
      if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE)
        {
          append_escaped (out, (const char *) node->content);
          continue;
        }
      if (node->type != XML_ELEMENT_NODE || IN (node->name, dropped_elements))
        continue;
      if (!IN (node->name, allowed_elements))
        {
          write_html (out, node->children);
          continue;
        }
      g_string_append_c (out, '<');
      g_string_append (out, (const char *) node->name);
      for (const xmlAttr *attr = node->properties; attr != NULL; attr = attr->next)
        {
          xmlChar *value = xmlNodeListGetString (node->doc, attr->children, 1);

          if (value != NULL && attribute_allowed (node->name, attr->name, (const char *) value))
            {
              g_string_append_c (out, ' ');
              g_string_append (out, (const char *) attr->name);
              g_string_append (out, "=\"");
              append_escaped (out, (const char *) value);
              g_string_append_c (out, '"');
            }
          xmlFree (value);
        }
      if (xmlStrcasecmp (node->name, (const xmlChar *) "a") == 0)
        g_string_append (out, " rel=\"noopener noreferrer\"");
      if (xmlStrcasecmp (node->name, (const xmlChar *) "br") == 0
          || xmlStrcasecmp (node->name, (const xmlChar *) "img") == 0)
        {
          g_string_append (out, ">");
          continue;
        }
      g_string_append_c (out, '>');
      write_html (out, node->children);
      g_string_append (out, "</");
      g_string_append (out, (const char *) node->name);
      g_string_append_c (out, '>');
    }
}

/* Starts a new line unless at the start of one. */
static void
new_line (GString *out)
{
  while (out->len > 0 && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);
  if (out->len > 0 && out->str[out->len - 1] != '\n')
    g_string_append_c (out, '\n');
}

static void
append_collapsed (GString *out, const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      if (g_ascii_isspace (*p))
        {
          if (out->len > 0 && out->str[out->len - 1] != ' ' && out->str[out->len - 1] != '\n')
            g_string_append_c (out, ' ');
        }
      else
        g_string_append_c (out, *p);
    }
}

static void
write_text (GString *out, const xmlNode *node)
{
  for (; node != NULL; node = node->next)
    {
      gboolean block;

      if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE)
        {
          append_collapsed (out, (const char *) node->content);
          continue;
        }
      if (node->type != XML_ELEMENT_NODE || IN (node->name, dropped_elements))
        continue;
      block = IN (node->name, block_elements);
      if (block)
        new_line (out);
      if (xmlStrcasecmp (node->name, (const xmlChar *) "li") == 0)
        g_string_append (out, "- ");
      write_text (out, node->children);
      if (block)
        new_line (out);
    }
}

struct _MgReportMarkup {
  htmlDocPtr doc;    /* NULL for an empty field */
  xmlNode *body;     /* the fragment's elements are its children; NULL: none */
};

MgReportMarkup *
mg_report_markup_parse (const char *markup)
{
  const int options = HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING
                      | HTML_PARSE_NOBLANKS;
  MgReportMarkup *self = g_new0 (MgReportMarkup, 1);
  g_autofree char *wrapped = NULL;
  xmlNode *root;

  if (markup == NULL || *markup == '\0')
    return self;
  wrapped = g_strconcat ("<html><body>", markup, "</body></html>", NULL);
  self->doc = htmlReadMemory (wrapped, (int) strlen (wrapped), NULL, "UTF-8", options);
  /* The errors are not reported; libxml2 would keep the last one's texts. */
  xmlResetLastError ();
  root = self->doc != NULL ? xmlDocGetRootElement (self->doc) : NULL;
  for (xmlNode *n = root != NULL ? root->children : NULL; n != NULL; n = n->next)
    if (n->type == XML_ELEMENT_NODE && xmlStrcasecmp (n->name, (const xmlChar *) "body") == 0)
      self->body = n;
  return self;
}

void
mg_report_markup_free (MgReportMarkup *self)
{
  if (self == NULL)
    return;
  xmlFreeDoc (self->doc);
  g_free (self);
}

char *
mg_report_markup_get_html (MgReportMarkup *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, NULL);
  if (self->body != NULL)
    write_html (out, self->body->children);
  return g_string_free (out, FALSE);
}

char *
mg_report_markup_get_text (MgReportMarkup *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, NULL);
  if (self->body != NULL)
    write_text (out, self->body->children);
  g_strstrip (out->str);
  return g_string_free (out, FALSE);
}

char *
mg_report_markup_to_html (const char *markup)
{
  g_autoptr(MgReportMarkup) parsed = mg_report_markup_parse (markup);

  return mg_report_markup_get_html (parsed);
}

char *
mg_report_markup_to_text (const char *markup)
{
  g_autoptr(MgReportMarkup) parsed = mg_report_markup_parse (markup);

  return mg_report_markup_get_text (parsed);
}
