/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Parser of metric definition files. Unknown elements are ignored on
 * purpose: shipped files carry elements newer than the spec. */
#include "mg-config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

#include "mg-colour.h"
#include "mg-definition-file.h"
#include "mg-xml-document.h"

typedef struct {
  const char *path;
  GPtrArray *diagnostics;
  int colour_line; /* of the current metric's <colour>, for its warning */
  GHashTable *bad_colours; /* unknown colours warned about, once per file */
} Parser;

#define FOR_EACH_ELEMENT(child, parent)                                  \
  for (xmlNode *child = (parent)->children; child != NULL; child = child->next) \
    if (child->type == XML_ELEMENT_NODE)

/* GLib 2.74 has no g_set_str(). */
static void
set_str (char **slot, const char *value)
{
  char *copy = g_strdup (value);

  g_free (*slot);
  *slot = copy;
}

/* Text content (CDATA included), trimmed; never NULL. */
static char *
text_of (const xmlNode *node)
{
  xmlChar *content = xmlNodeGetContent (node);
  char *text = g_strstrip (g_strdup (content != NULL ? (const char *) content : ""));

  xmlFree (content);
  return text;
}

/* Attribute value, trimmed; NULL when absent. */
static char *
attr_of (const xmlNode *node, const char *name)
{
  xmlChar *value = xmlGetProp (node, (const xmlChar *) name);
  char *copy;

  if (value == NULL)
    return NULL;
  copy = g_strstrip (g_strdup ((const char *) value));
  xmlFree (value);
  return copy;
}

static void
diag (Parser *parser, const xmlNode *node, MgSeverity severity, const char *format, ...)
  G_GNUC_PRINTF (4, 5);

static void
diag (Parser *parser, const xmlNode *node, MgSeverity severity, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (parser->diagnostics,
                   mg_diagnostic_new (parser->path, node != NULL ? mg_xml_line (node) : 0,
                                      severity, message));
}

static void
diag_line (Parser *parser, int line, MgSeverity severity, const char *format, ...)
  G_GNUC_PRINTF (4, 5);

static void
diag_line (Parser *parser, int line, MgSeverity severity, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (parser->diagnostics,
                   mg_diagnostic_new (parser->path, line, severity, message));
}

static gboolean
parse_bool_text (const char *text, gboolean *out)
{
  if (g_ascii_strcasecmp (text, "true") == 0 || g_ascii_strcasecmp (text, "yes") == 0
      || g_strcmp0 (text, "1") == 0)
    *out = TRUE;
  else if (g_ascii_strcasecmp (text, "false") == 0 || g_ascii_strcasecmp (text, "no") == 0
           || g_strcmp0 (text, "0") == 0)
    *out = FALSE;
  else
    return FALSE;
  return TRUE;
}

/* A bad boolean is a warning: the default is kept. */
static void
read_bool (Parser *parser, const xmlNode *node, const char *what, const char *text,
           gboolean *out)
{
  if (text == NULL)
    return;
  if (!parse_bool_text (text, out))
    diag (parser, node, MG_SEVERITY_WARNING,
          _("%s is '%s', not true or false; using %s"), what, text, *out ? "true" : "false");
}

static void
read_bool_element (Parser *parser, const xmlNode *node, gboolean *out)
{
  g_autofree char *text = text_of (node);
  g_autofree char *what = g_strdup_printf ("<%s>", (const char *) node->name);

  read_bool (parser, node, what, text, out);
}

static gboolean
parse_enabled (const char *text, MgEnabled *out)
{
  static const struct {
    const char *name;
    MgEnabled value;
  } names[] = {
    { "always", MG_ENABLED_ALWAYS },       { "default_yes", MG_ENABLED_DEFAULT_YES },
    { "enabled", MG_ENABLED_DEFAULT_YES }, { "default_no", MG_ENABLED_DEFAULT_NO },
    { "never", MG_ENABLED_NEVER },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (text, names[i].name) == 0)
      {
        *out = names[i].value;
        return TRUE;
      }
  return FALSE;
}

/* An id becomes a command-line token and a plan field: no blanks, no commas. */
static gboolean
id_is_valid (const char *id)
{
  if (id == NULL || *id == '\0')
    return FALSE;
  for (const char *p = id; *p != '\0'; p++)
    if (g_ascii_isspace (*p) || *p == ',')
      return FALSE;
  return TRUE;
}

static void
parse_rel (Parser *parser, const xmlNode *node, MgMetricDef *def)
{
  g_autofree char *type = attr_of (node, "type");
  g_autofree char *name = attr_of (node, "name");

  if (g_strcmp0 (type, "integral") != 0 || name == NULL || *name == '\0')
    {
      diag (parser, node, MG_SEVERITY_WARNING,
            _("metric '%s': <rel> is ignored: only <rel type=\"integral\" name=\"METRIC ID\"/> "
              "is known"), def->id);
      return;
    }
  g_free (def->integral_name);
  def->integral_name = g_steal_pointer (&name);
}

static void
parse_display (Parser *parser, const xmlNode *display, MgMetricDef *def)
{
  FOR_EACH_ELEMENT (node, display)
    {
      if (mg_xml_is (node, "rel"))
        {
          parse_rel (parser, node, def);
          continue;
        }

      g_autofree char *text = text_of (node);

      if (mg_xml_is (node, "description"))
        set_str (&def->description, text);
      else if (mg_xml_is (node, "displayName"))
        set_str (&def->display_name, text);
      else if (mg_xml_is (node, "type"))
        set_str (&def->type_name, text);
      else if (mg_xml_is (node, "colour") || mg_xml_is (node, "color"))
        {
          set_str (&def->colour_spec, text);
          parser->colour_line = mg_xml_line (node);
        }
      else if (mg_xml_is (node, "displayUnits"))
        set_str (&def->display_units, text);
      else if (mg_xml_is (node, "displayFactor"))
        {
          char *end;
          double factor = g_ascii_strtod (text, &end);

          if (*text == '\0' || *end != '\0' || factor == 0.0)
            diag (parser, node, MG_SEVERITY_WARNING,
                  _("metric '%s': <displayFactor> '%s' is not a non-zero number; using 1"),
                  def->id, text);
          else
            def->display_factor = factor;
        }
      else if (mg_xml_is (node, "decimalPlaces"))
        {
          guint64 places;

          if (!g_ascii_string_to_unsigned (text, 10, 0, 15, &places, NULL))
            diag (parser, node, MG_SEVERITY_WARNING,
                  _("metric '%s': <decimalPlaces> '%s' is not a whole number from 0 to 15; "
                    "ignored"), def->id, text);
          else
            def->decimal_places = (int) places;
        }
      else if (mg_xml_is (node, "autoDisplayFactor"))
        read_bool_element (parser, node, &def->auto_display_factor);
      else if (mg_xml_is (node, "accumulate"))
        read_bool_element (parser, node, &def->accumulate);
      else if (mg_xml_is (node, "normalizePercentagesToCoresPerProcess"))
        read_bool_element (parser, node, &def->normalize_percentages);
      else if (mg_xml_is (node, "clampPercentages"))
        read_bool_element (parser, node, &def->clamp_percentages);
    }
}

static void
parse_metric_source (Parser *parser, const xmlNode *node, MgMetricDef *def)
{
  g_autofree char *divide = attr_of (node, "divideBySampleTime");
  char *custom_data;

  g_free (def->source_ref);
  def->source_ref = attr_of (node, "ref");
  g_free (def->function_name);
  def->function_name = attr_of (node, "functionName");
  read_bool (parser, node, "divideBySampleTime", divide, &def->divide_by_sample_time);
  /* customData is passed to the plugin as written: keep its blanks. */
  custom_data = (char *) xmlGetProp (node, (const xmlChar *) "customData");
  g_free (def->custom_data);
  def->custom_data = g_strdup (custom_data);
  xmlFree (custom_data);
}

/* Returns FALSE when the element makes the metric unusable. */
static gboolean
parse_metric_child (Parser *parser, const xmlNode *node, MgMetricDef *def)
{
  g_autofree char *text = NULL;

  if (mg_xml_is (node, "source"))
    {
      parse_metric_source (parser, node, def);
      return TRUE;
    }
  if (mg_xml_is (node, "display"))
    {
      parse_display (parser, node, def);
      return TRUE;
    }
  if (mg_xml_is (node, "rel"))
    {
      parse_rel (parser, node, def);
      return TRUE;
    }
  if (mg_xml_is (node, "configFile"))
    {
      g_free (def->config_env);
      def->config_env = attr_of (node, "env");
      return TRUE;
    }

  text = text_of (node);
  if (mg_xml_is (node, "enabled"))
    {
      if (!parse_enabled (text, &def->enabled))
        {
          diag (parser, node, MG_SEVERITY_ERROR,
                _("metric '%s': <enabled> is '%s'; use always, default_yes, default_no, "
                  "never or enabled"), def->id, text);
          return FALSE;
        }
    }
  else if (mg_xml_is (node, "units"))
    set_str (&def->units, text);
  else if (mg_xml_is (node, "dataType"))
    {
      if (g_strcmp0 (text, "uint64_t") == 0)
        def->data_type = MG_DATA_TYPE_UINT64;
      else if (g_strcmp0 (text, "double") == 0)
        def->data_type = MG_DATA_TYPE_DOUBLE;
      else
        {
          diag (parser, node, MG_SEVERITY_ERROR,
                _("metric '%s': <dataType> is '%s'; use uint64_t or double"), def->id, text);
          return FALSE;
        }
    }
  else if (mg_xml_is (node, "domain"))
    {
      if (g_strcmp0 (text, "time") == 0)
        def->domain = MG_DOMAIN_TIME;
      else if (g_strcmp0 (text, "single_value") == 0)
        def->domain = MG_DOMAIN_SINGLE_VALUE;
      else
        {
          diag (parser, node, MG_SEVERITY_ERROR,
                _("metric '%s': <domain> is '%s'; use time or single_value"), def->id, text);
          return FALSE;
        }
    }
  else if (mg_xml_is (node, "onePerNode"))
    read_bool_element (parser, node, &def->one_per_node);
  else if (mg_xml_is (node, "backfill"))
    read_bool_element (parser, node, &def->backfill);
  else if (mg_xml_is (node, "sparse"))
    read_bool_element (parser, node, &def->sparse);
  return TRUE;
}

static void
resolve_colour (Parser *parser, MgMetricDef *def)
{
  g_autoptr (GError) error = NULL;

  def->type = mg_metric_type_from_string (def->type_name);
  def->colour = mg_colour_for_type (def->type, FALSE);
  def->has_colour = FALSE;
  if (def->colour_spec == NULL || *def->colour_spec == '\0')
    return;
  if (mg_colour_parse (def->colour_spec, &def->colour, &error))
    def->has_colour = TRUE;
  else if (g_hash_table_add (parser->bad_colours, g_strdup (def->colour_spec)))
    diag_line (parser, parser->colour_line, MG_SEVERITY_WARNING,
               _("metric '%s': %s; using the colour of type '%s'"), def->id, error->message,
               mg_metric_type_to_string (def->type));
}

static gboolean
check_metric_required (Parser *parser, const xmlNode *node, MgMetricDef *def,
                       gboolean has_data_type)
{
  if (def->source_ref == NULL || *def->source_ref == '\0')
    {
      diag (parser, node, MG_SEVERITY_ERROR,
            _("metric '%s' has no <source ref=\"…\"/>; name the id of the <source> that "
              "provides it"), def->id);
      return FALSE;
    }
  if (def->function_name == NULL || *def->function_name == '\0')
    {
      diag (parser, node, MG_SEVERITY_ERROR,
            _("metric '%s' has no functionName in its <source>; name the plugin's getter "
              "function"), def->id);
      return FALSE;
    }
  if (!has_data_type)
    {
      diag (parser, node, MG_SEVERITY_ERROR,
            _("metric '%s' has no <dataType>; add <dataType>uint64_t</dataType> or "
              "<dataType>double</dataType>"), def->id);
      return FALSE;
    }
  return TRUE;
}

static MgMetricDef *
parse_metric (Parser *parser, const xmlNode *node)
{
  g_autoptr (MgMetricDef) def = mg_metric_def_new ();
  gboolean ok = TRUE;
  gboolean has_data_type = FALSE;

  def->id = attr_of (node, "id");
  def->file = g_strdup (parser->path);
  def->line = mg_xml_line (node);
  parser->colour_line = def->line;
  if (!id_is_valid (def->id))
    {
      diag (parser, node, MG_SEVERITY_ERROR,
            def->id == NULL || *def->id == '\0'
              ? _("<metric> has no id attribute; give it a unique id such as "
                  "id=\"com.example.plugin.metric\"")
              : _("<metric> id contains a blank or a comma; use letters, digits, '.', '_' "
                  "and '-' only"));
      return NULL;
    }

  FOR_EACH_ELEMENT (child, node)
    {
      if (mg_xml_is (child, "dataType"))
        has_data_type = TRUE;
      if (!parse_metric_child (parser, child, def))
        ok = FALSE;
    }
  if (!ok || !check_metric_required (parser, node, def, has_data_type))
    return NULL;

  if (def->display_name == NULL || *def->display_name == '\0')
    set_str (&def->display_name, def->id);
  resolve_colour (parser, def);
  return g_steal_pointer (&def);
}

static MgMetricGroup *
parse_group (Parser *parser, const xmlNode *node)
{
  g_autoptr (MgMetricGroup) group = mg_metric_group_new ();

  group->id = attr_of (node, "id");
  group->file = g_strdup (parser->path);
  group->line = mg_xml_line (node);
  if (!id_is_valid (group->id))
    {
      diag (parser, node, MG_SEVERITY_ERROR,
            _("<metricGroup> has no valid id attribute; give it a unique id without blanks "
              "or commas"));
      return NULL;
    }

  FOR_EACH_ELEMENT (child, node)
    {
      if (mg_xml_is (child, "metric"))
        {
          g_autofree char *ref = attr_of (child, "ref");

          if (ref == NULL || *ref == '\0')
            diag (parser, child, MG_SEVERITY_ERROR,
                  _("group '%s': <metric> has no ref attribute; name a metric id"), group->id);
          else
            g_ptr_array_add (group->metric_refs, g_steal_pointer (&ref));
          continue;
        }

      g_autofree char *text = text_of (child);

      if (mg_xml_is (child, "displayName"))
        set_str (&group->display_name, text);
      else if (mg_xml_is (child, "description"))
        set_str (&group->description, text);
    }
  if (group->display_name == NULL || *group->display_name == '\0')
    set_str (&group->display_name, group->id);
  return g_steal_pointer (&group);
}

static void
parse_functions (const xmlNode *node, MgSourceDef *source)
{
  FOR_EACH_ELEMENT (child, node)
    {
      g_autofree char *text = text_of (child);

      if (*text == '\0')
        continue;
      if (mg_xml_is (child, "start"))
        set_str (&source->start_function, text);
      else if (mg_xml_is (child, "stop"))
        set_str (&source->stop_function, text);
    }
}

static MgSourceDef *
parse_source (Parser *parser, const xmlNode *node)
{
  g_autoptr (MgSourceDef) source = mg_source_def_new ();

  source->id = attr_of (node, "id");
  source->file = g_strdup (parser->path);
  source->line = mg_xml_line (node);
  if (!id_is_valid (source->id))
    {
      diag (parser, node, MG_SEVERITY_ERROR,
            _("<source> has no valid id attribute; give it the id its metrics name in "
              "<source ref=\"…\"/>"));
      return NULL;
    }

  FOR_EACH_ELEMENT (child, node)
    {
      if (mg_xml_is (child, "functions"))
        {
          parse_functions (child, source);
          continue;
        }

      g_autofree char *text = text_of (child);

      if (mg_xml_is (child, "sharedLibrary"))
        set_str (&source->shared_library, text);
      else if (mg_xml_is (child, "preload") && *text != '\0')
        g_ptr_array_add (source->preloads, g_steal_pointer (&text));
    }
  if (source->shared_library == NULL || *source->shared_library == '\0')
    {
      diag (parser, node, MG_SEVERITY_ERROR,
            _("source '%s' has no <sharedLibrary>; name the plugin library, e.g. "
              "<sharedLibrary>libmyplugin.so</sharedLibrary>"), source->id);
      return NULL;
    }
  return g_steal_pointer (&source);
}

MgDefinitionFile *
mg_definition_file_new (const char *path)
{
  MgDefinitionFile *file = g_new0 (MgDefinitionFile, 1);

  file->path = g_strdup (path);
  file->metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_def_free);
  file->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_group_free);
  file->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_source_def_free);
  return file;
}

static void
parse_root (Parser *parser, const xmlNode *root, MgDefinitionFile *file)
{
  file->version = attr_of (root, "version");
  if (file->version != NULL && g_strcmp0 (file->version, "1") != 0)
    diag (parser, root, MG_SEVERITY_WARNING,
          _("version '%s' is not known; reading the file as version 1"), file->version);

  FOR_EACH_ELEMENT (node, root)
    {
      gpointer item;

      if (mg_xml_is (node, "metric") && (item = parse_metric (parser, node)) != NULL)
        g_ptr_array_add (file->metrics, item);
      else if (mg_xml_is (node, "metricGroup") && (item = parse_group (parser, node)) != NULL)
        g_ptr_array_add (file->groups, item);
      else if (mg_xml_is (node, "source") && (item = parse_source (parser, node)) != NULL)
        g_ptr_array_add (file->sources, item);
    }
}

MgDefinitionFile *
mg_definition_file_load_from_data (const char *data, gsize length, const char *path,
                                   GPtrArray *diagnostics)
{
  g_autoptr (GHashTable) bad_colours = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                              g_free, NULL);
  Parser parser = { path, diagnostics, 0, bad_colours };
  g_autoptr (xmlDoc) doc = NULL;
  xmlNode *root;
  MgDefinitionFile *file = NULL;

  g_return_val_if_fail (data != NULL && path != NULL && diagnostics != NULL, NULL);

  doc = mg_xml_document_parse (data, length, path,
                               _("the file is too large to be a metric definition file"),
                               _("the file is skipped: fix it or remove it from the metrics folder"),
                               diagnostics);
  if (doc == NULL)
    return NULL;
  root = xmlDocGetRootElement (doc);
  if (root != NULL && mg_xml_is (root, "partialReport"))
    /* MAP's examples put report.xml beside the metric files. */
    mg_diagnostic_add (diagnostics, path, mg_xml_line (root), MG_SEVERITY_NOTE,
                       _("a partial report, not a metric definition file; skipped"));
  else if (root == NULL
           || !(mg_xml_is (root, "metricdefinitions") || mg_xml_is (root, "metricdefinition")))
    mg_diagnostic_add (diagnostics, path, root != NULL ? mg_xml_line (root) : 0, MG_SEVERITY_ERROR,
                       _("the root element is <%s>, not <metricdefinitions>; this is not a "
                         "metric definition file"),
                       root != NULL ? (const char *) root->name : "");
  else
    {
      file = mg_definition_file_new (path);
      parse_root (&parser, root, file);
    }
  return file;
}

MgDefinitionFile *
mg_definition_file_load (const char *path, GPtrArray *diagnostics)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (path != NULL && diagnostics != NULL, NULL);

  if (!mg_xml_document_read_file (path, &data, &length, diagnostics))
    return NULL;
  return mg_definition_file_load_from_data (data, length, path, diagnostics);
}

void
mg_definition_file_free (MgDefinitionFile *file)
{
  if (file == NULL)
    return;
  g_free (file->path);
  g_free (file->version);
  g_ptr_array_unref (file->metrics);
  g_ptr_array_unref (file->groups);
  g_ptr_array_unref (file->sources);
  g_free (file);
}
