/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Parser of partial report files. Every rule of seed 000 section 3 is
 * checked here; an error refuses the whole file, a warning keeps it. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <string.h>

#include "defs/mg-colour.h"
#include "defs/mg-diagnostic.h"
#include "mg-partial-report.h"
#include "defs/mg-xml-document.h"

typedef struct {
  const char *path;
  GPtrArray *diagnostics;
  gboolean failed;
} Parser;

#define FOR_EACH_ELEMENT(child, parent)                                            \
  for (xmlNode *child = (parent)->children; child != NULL; child = child->next) \
    if (child->type == XML_ELEMENT_NODE)

static const char *const pick_names[] = { "min", "max", "mean", "sum" };

const char *
mg_report_pick_to_string (MgReportPick pick)
{
  g_return_val_if_fail (pick <= MG_REPORT_PICK_SUM, "");
  return pick_names[pick];
}

static char *
attr_of (const xmlNode *node, const char *name)
{
  xmlChar *value = xmlGetNoNsProp (node, (const xmlChar *) name);
  char *copy = value != NULL ? g_strstrip (g_strdup ((const char *) value)) : NULL;

  xmlFree (value);
  return copy;
}

static void G_GNUC_PRINTF (4, 5)
report (Parser *parser, const xmlNode *node, MgSeverity severity, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  mg_diagnostic_add (parser->diagnostics, parser->path, node != NULL ? mg_xml_line (node) : 0,
                     severity, "%s", message);
  if (severity == MG_SEVERITY_ERROR)
    parser->failed = TRUE;
}

/* Spec 3.5: names and ids under allinea. are reserved, but the spec's own
 * example and vendors' files use them: a warning, and the file still counts. */
static void
check_reserved (Parser *parser, const xmlNode *node, const char *what, const char *value)
{
  if (g_str_has_prefix (value, "allinea.") || g_str_has_prefix (value, "com.allinea."))
    report (parser, node, MG_SEVERITY_WARNING,
            _("reserved name: the %s '%s' starts with 'allinea.' or 'com.allinea.', which "
              "the spec keeps for Arm's own reports; use your reversed domain name instead"),
            what, value);
}

/* Spec 3.5: an XML NCName, symbols only '.', '_' and '-', not starting
 * with '.' or '_'. */
static gboolean
check_id (Parser *parser, const xmlNode *node, const char *what, const char *id)
{
  if (id == NULL || *id == '\0')
    {
      report (parser, node, MG_SEVERITY_ERROR, _("missing id: every <%s> needs an id"),
              (const char *) node->name);
      return FALSE;
    }
  for (const char *p = id; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!g_unichar_isalnum (c) && c != '.' && c != '_' && c != '-')
        {
          report (parser, node, MG_SEVERITY_ERROR,
                  _("invalid id: the %s '%s' contains '%.*s'; ids may hold only letters, "
                    "digits, '.', '_' and '-'"),
                  what, id, (int) (g_utf8_next_char (p) - p), p);
          return FALSE;
        }
    }
  if (id[0] == '.' || id[0] == '_')
    {
      report (parser, node, MG_SEVERITY_ERROR,
              _("invalid id: the %s '%s' begins with '%c'; ids may not begin with '.' or '_'"),
              what, id, id[0]);
      return FALSE;
    }
  if (xmlValidateNCName ((const xmlChar *) id, 0) != 0)
    {
      report (parser, node, MG_SEVERITY_ERROR,
              _("invalid id: the %s '%s' is not an XML NCName (it must begin with a letter)"),
              what, id);
      return FALSE;
    }
  check_reserved (parser, node, what, id);
  return TRUE;
}

static gboolean
parse_pick (const char *text, gboolean sum_allowed, MgReportPick *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (pick_names); i++)
    if (g_strcmp0 (text, pick_names[i]) == 0 && (sum_allowed || i != MG_REPORT_PICK_SUM))
      {
        *out = (MgReportPick) i;
        return TRUE;
      }
  return FALSE;
}

static void
read_pick (Parser *parser, const xmlNode *node, const char *attribute, gboolean sum_allowed,
           MgReportPick *out)
{
  g_autofree char *text = attr_of (node, attribute);

  *out = MG_REPORT_PICK_MEAN;
  if (text == NULL)
    report (parser, node, MG_SEVERITY_WARNING, _("no %s: 'mean' is used"), attribute);
  else if (!parse_pick (text, sum_allowed, out))
    report (parser, node, MG_SEVERITY_ERROR,
            sum_allowed ? _("unknown %s '%s': write min, max, mean or sum")
                        : _("unknown %s '%s': write min, max or mean"),
            attribute, text);
}

static void
read_colour (Parser *parser, const xmlNode *node, gboolean *has, MgRgba *colour)
{
  g_autofree char *spec = attr_of (node, "colour");
  g_autoptr (GError) error = NULL;

  *has = FALSE;
  if (spec == NULL)
    return;
  if (mg_colour_parse (spec, colour, &error))
    *has = TRUE;
  else
    report (parser, node, MG_SEVERITY_WARNING, _("%s; the default colour is used"),
            error->message);
}

static void
report_metric_free (MgReportMetric *metric)
{
  g_free (metric->id);
  g_free (metric->display_name);
  g_free (metric->tooltip);
  g_free (metric->units);
  g_free (metric->metric_ref);
  g_free (metric);
}

static void
entry_free (MgReportEntry *entry)
{
  g_free (entry->group);
  g_free (entry);
}

static void
subsection_free (MgReportSubsection *subsection)
{
  g_free (subsection->id);
  g_free (subsection->heading);
  g_free (subsection->text);
  g_ptr_array_unref (subsection->entries);
  g_free (subsection);
}

void
mg_partial_report_free (MgPartialReport *report)
{
  if (report == NULL)
    return;
  g_free (report->name);
  g_free (report->file);
  g_ptr_array_unref (report->subsections);
  g_ptr_array_unref (report->metrics);
  g_free (report);
}

static void
translate (char **text, const char *domain)
{
  const char *translated;

  if (*text == NULL || **text == '\0')
    return;
  translated = g_dgettext (domain, *text);
  if (translated != *text)
    {
      g_free (*text);
      *text = g_strdup (translated);
    }
}

void
mg_partial_report_translate (MgPartialReport *report, const char *domain)
{
  for (guint i = 0; i < report->metrics->len; i++)
    {
      MgReportMetric *metric = g_ptr_array_index (report->metrics, i);

      translate (&metric->display_name, domain);
      translate (&metric->tooltip, domain);
    }
  for (guint i = 0; i < report->subsections->len; i++)
    {
      MgReportSubsection *subsection = g_ptr_array_index (report->subsections, i);

      translate (&subsection->heading, domain);
      translate (&subsection->text, domain);
    }
}

static void
parse_report_metric (Parser *parser, const xmlNode *node, MgPartialReport *out)
{
  MgReportMetric *metric = g_new0 (MgReportMetric, 1);
  g_autofree char *source = attr_of (node, "source");
  gboolean have_details = FALSE;

  g_ptr_array_add (out->metrics, metric);
  metric->line = mg_xml_line (node);
  metric->id = attr_of (node, "id");
  check_id (parser, node, _("report metric id"), metric->id);
  metric->display_name = attr_of (node, "displayName");
  if (metric->display_name == NULL)
    {
      report (parser, node, MG_SEVERITY_WARNING, _("no displayName: the id is shown instead"));
      metric->display_name = g_strdup (metric->id != NULL ? metric->id : "");
    }
  metric->tooltip = attr_of (node, "tooltip");
  metric->units = attr_of (node, "units");
  if (metric->units == NULL)
    metric->units = g_strdup ("");
  read_colour (parser, node, &metric->has_colour, &metric->colour);
  if (g_strcmp0 (source, "metric") != 0)
    report (parser, node, MG_SEVERITY_ERROR,
            _("source must be \"metric\", not \"%s\""), source != NULL ? source : "");

  FOR_EACH_ELEMENT (child, node)
    {
      if (!mg_xml_is (child, "sourceDetails"))
        continue;
      have_details = TRUE;
      g_free (metric->metric_ref);
      metric->metric_ref = attr_of (child, "metricRef");
      if (metric->metric_ref == NULL || *metric->metric_ref == '\0')
        report (parser, child, MG_SEVERITY_ERROR,
                _("no metricRef: name the metric this report metric is computed from"));
      read_pick (parser, child, "sampleValue", TRUE, &metric->sample_value);
      read_pick (parser, child, "aggregation", FALSE, &metric->aggregation);
    }
  if (!have_details)
    report (parser, node, MG_SEVERITY_ERROR,
            _("no <sourceDetails>: say which metric (metricRef), sampleValue and aggregation"));
}

/* The first report metric before @before with @id, or NULL. */
static const MgReportMetric *
earlier_with_id (GPtrArray *metrics, guint before, const char *id)
{
  for (guint i = 0; i < before; i++)
    {
      const MgReportMetric *metric = g_ptr_array_index (metrics, i);

      if (g_strcmp0 (metric->id, id) == 0)
        return metric;
    }
  return NULL;
}

/* Spec 3.3.3: an id is unique, and ids with dots in them must not be
 * substrings of each other. Each id is compared once, at its first use. */
static void
check_metric_ids (Parser *parser, GPtrArray *metrics)
{
  for (guint i = 0; i < metrics->len; i++)
    {
      const MgReportMetric *a = g_ptr_array_index (metrics, i);
      const MgReportMetric *first;

      if (a->id == NULL)
        continue;
      if ((first = earlier_with_id (metrics, i, a->id)) != NULL)
        {
          mg_diagnostic_add (parser->diagnostics, parser->path, a->line, MG_SEVERITY_ERROR,
                             _("duplicate id: the report metric id '%s' is also used on "
                               "line %d"), a->id, first->line);
          parser->failed = TRUE;
          continue;
        }
      if (strchr (a->id, '.') == NULL)
        continue;
      for (guint j = 0; j < metrics->len; j++)
        {
          const MgReportMetric *b = g_ptr_array_index (metrics, j);

          if (b->id == NULL || strcmp (a->id, b->id) == 0 || strstr (b->id, a->id) == NULL
              || earlier_with_id (metrics, j, b->id) != NULL)
            continue;
          mg_diagnostic_add (parser->diagnostics, parser->path, b->line, MG_SEVERITY_ERROR,
                             _("dotted id is a substring: '%s' (line %d) is part of '%s'; "
                               "ids with dots must not be substrings of each other"),
                             a->id, a->line, b->id);
          parser->failed = TRUE;
        }
    }
}

static const MgReportMetric *
find_metric (MgPartialReport *report, const char *id)
{
  for (guint i = 0; i < report->metrics->len; i++)
    {
      const MgReportMetric *metric = g_ptr_array_index (report->metrics, i);

      if (g_strcmp0 (metric->id, id) == 0)
        return metric;
    }
  return NULL;
}

/* The markup of <text> as written: elements serialised, text and CDATA as
 * they are (both are HTML source for the sanitiser). */
static char *
markup_of (const xmlNode *node)
{
  g_autoptr (GString) out = g_string_new (NULL);

  for (xmlNode *child = node->children; child != NULL; child = child->next)
    {
      if (child->type == XML_TEXT_NODE || child->type == XML_CDATA_SECTION_NODE)
        {
          g_autofree char *escaped = NULL;

          /* A text node's "<" was written "&lt;" and means a literal
           * character; CDATA holds HTML as is. */
          if (child->type == XML_TEXT_NODE)
            escaped = g_markup_escape_text ((const char *) child->content, -1);
          g_string_append (out, escaped != NULL ? escaped : (const char *) child->content);
        }
      else if (child->type == XML_ELEMENT_NODE)
        {
          xmlBuffer *buffer = xmlBufferCreate ();

          xmlNodeDump (buffer, child->doc, child, 0, 0);
          g_string_append (out, (const char *) xmlBufferContent (buffer));
          xmlBufferFree (buffer);
        }
    }
  g_strstrip (out->str);
  out->len = strlen (out->str);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
parse_subsection (Parser *parser, const xmlNode *node, MgPartialReport *out)
{
  MgReportSubsection *subsection = g_new0 (MgReportSubsection, 1);

  g_ptr_array_add (out->subsections, subsection);
  subsection->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  subsection->line = mg_xml_line (node);
  subsection->id = attr_of (node, "id");
  check_id (parser, node, _("subsection id"), subsection->id);
  subsection->heading = attr_of (node, "heading");
  if (subsection->heading == NULL)
    {
      report (parser, node, MG_SEVERITY_WARNING, _("no heading: the id is shown instead"));
      subsection->heading = g_strdup (subsection->id != NULL ? subsection->id : "");
    }
  read_colour (parser, node, &subsection->has_colour, &subsection->colour);

  FOR_EACH_ELEMENT (child, node)
    {
      if (mg_xml_is (child, "text"))
        {
          g_free (subsection->text);
          subsection->text = markup_of (child);
        }
      else if (mg_xml_is (child, "entry"))
        {
          g_autofree char *ref = attr_of (child, "reportMetric");
          const MgReportMetric *metric = find_metric (out, ref);
          MgReportEntry *entry;

          if (metric == NULL)
            {
              report (parser, child, MG_SEVERITY_ERROR,
                      _("unknown report metric: the entry names '%s', which no <reportMetric> "
                        "of this file defines"), ref != NULL ? ref : "");
              continue;
            }
          entry = g_new0 (MgReportEntry, 1);
          entry->metric = metric;
          entry->group = attr_of (child, "group");
          entry->line = mg_xml_line (child);
          g_ptr_array_add (subsection->entries, entry);
        }
      else
        report (parser, child, MG_SEVERITY_WARNING, _("unknown element <%s> in <subsection> "
                                                      "ignored"), (const char *) child->name);
    }
}

static void
parse_root (Parser *parser, const xmlNode *root, MgPartialReport *out)
{
  if (root->ns == NULL || root->ns->href == NULL)
    report (parser, root, MG_SEVERITY_ERROR,
            _("xmlns missing: <partialReport> must have xmlns=\"%s\""), MG_PARTIAL_REPORT_XMLNS);
  else if (xmlStrcmp (root->ns->href, (const xmlChar *) MG_PARTIAL_REPORT_XMLNS) != 0)
    report (parser, root, MG_SEVERITY_ERROR,
            _("wrong xmlns \"%s\": <partialReport> must have xmlns=\"%s\""),
            (const char *) root->ns->href, MG_PARTIAL_REPORT_XMLNS);

  out->name = attr_of (root, "name");
  if (out->name == NULL || *out->name == '\0')
    report (parser, root, MG_SEVERITY_ERROR,
            _("missing name: <partialReport> needs a name that identifies the report"));
  else
    check_reserved (parser, root, _("report name"), out->name);

  /* Metrics first: entries refer to them wherever they are written. */
  FOR_EACH_ELEMENT (child, root)
    if (mg_xml_is (child, "reportMetrics"))
      {
        FOR_EACH_ELEMENT (metric, child)
          {
            if (mg_xml_is (metric, "reportMetric"))
              parse_report_metric (parser, metric, out);
            else
              report (parser, metric, MG_SEVERITY_WARNING,
                      _("unknown element <%s> in <reportMetrics> ignored"),
                      (const char *) metric->name);
          }
        check_metric_ids (parser, out->metrics);
      }
  FOR_EACH_ELEMENT (child, root)
    {
      if (mg_xml_is (child, "subsections"))
        {
          FOR_EACH_ELEMENT (subsection, child)
            {
              if (mg_xml_is (subsection, "subsection"))
                parse_subsection (parser, subsection, out);
              else
                report (parser, subsection, MG_SEVERITY_WARNING,
                        _("unknown element <%s> in <subsections> ignored"),
                        (const char *) subsection->name);
            }
        }
      else if (!mg_xml_is (child, "reportMetrics"))
        report (parser, child, MG_SEVERITY_WARNING,
                _("unknown element <%s> in <partialReport> ignored"), (const char *) child->name);
    }
}

MgPartialReport *
mg_partial_report_load_data (const char *data, gsize len, const char *name,
                             GPtrArray *diagnostics)
{
  Parser parser = { name, diagnostics, FALSE };
  g_autoptr (MgPartialReport) report_out = NULL;
  g_autoptr (xmlDoc) doc = NULL;
  xmlNode *root;

  g_return_val_if_fail (data != NULL && name != NULL && diagnostics != NULL, NULL);

  doc = mg_xml_document_parse (data, len, name, _("the file is too large to be a partial report"),
                               NULL, diagnostics);
  if (doc == NULL)
    return NULL;
  if ((root = xmlDocGetRootElement (doc)) == NULL || !mg_xml_is (root, "partialReport"))
    report (&parser, root, MG_SEVERITY_ERROR,
            _("the root element is <%s>, not <partialReport>; this is not a partial report"),
            root != NULL ? (const char *) root->name : "");
  else
    {
      report_out = g_new0 (MgPartialReport, 1);
      report_out->file = g_strdup (name);
      report_out->metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) report_metric_free);
      report_out->subsections = g_ptr_array_new_with_free_func ((GDestroyNotify) subsection_free);
      parse_root (&parser, root, report_out);
    }
  if (parser.failed)
    return NULL;
  return g_steal_pointer (&report_out);
}

MgPartialReport *
mg_partial_report_load (const char *path, GPtrArray *diagnostics)
{
  g_autofree char *data = NULL;
  gsize len;

  g_return_val_if_fail (path != NULL && diagnostics != NULL, NULL);
  if (!mg_xml_document_read_file (path, &data, &len, diagnostics))
    return NULL;
  return mg_partial_report_load_data (data, len, path, diagnostics);
}
