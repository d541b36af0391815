/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-code-item.h"
#include "plot/mg-selection-stats.h"

struct _MgCodeTree {
  gatomicrefcount ref;
  MgCallTree *tree;
  MgProcessSpread *spread;   /* NULL: one process */
  MgProfile *profile;        /* names the processes of the spread */
};

MgCodeTree *
mg_code_tree_new (MgCallTree *tree)
{
  MgCodeTree *self = g_new0 (MgCodeTree, 1);
  g_atomic_ref_count_init (&self->ref);
  self->tree = tree;
  return self;
}

MgCodeTree *
mg_code_tree_ref (MgCodeTree *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
mg_code_tree_unref (MgCodeTree *self)
{
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  mg_call_tree_free (self->tree);
  g_clear_pointer (&self->spread, mg_process_spread_free);
  g_clear_object (&self->profile);
  g_free (self);
}

void
mg_code_tree_set_spread (MgCodeTree *self, MgProcessSpread *spread, MgProfile *profile)
{
  g_clear_pointer (&self->spread, mg_process_spread_free);
  g_clear_object (&self->profile);
  self->spread = spread;
  self->profile = profile ? g_object_ref (profile) : NULL;
}

gboolean
mg_code_tree_has_spread (MgCodeTree *self)
{
  return self->spread != NULL && mg_process_spread_get_n_processes (self->spread) > 1;
}

const MgCallTree *
mg_code_tree_get (MgCodeTree *self)
{
  return self->tree;
}

struct _MgCodeItem {
  GObject parent_instance;
  MgCodeTree *tree;
  gboolean is_node;
  MgCallTreeKind kind;
  guint node;
  const MgCallFunction *function;
  guint64 self;
  guint64 total;
  char *location;
  char *module;
};

G_DEFINE_FINAL_TYPE (MgCodeItem, mg_code_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_SELF,
  PROP_TOTAL,
  PROP_SELF_SHARE,
  PROP_TOTAL_SHARE,
  PROP_LOCATION,
  PROP_MODULE,
  PROP_SPREAD_MIN,
  PROP_SPREAD_MEAN,
  PROP_SPREAD_MAX,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
mg_code_item_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  MgCodeItem *self = MG_CODE_ITEM (object);

  switch (id)
    {
    case PROP_NAME:
      g_value_set_string (value, mg_code_item_get_name (self));
      break;
    case PROP_SELF:
      g_value_set_uint64 (value, self->self);
      break;
    case PROP_TOTAL:
      g_value_set_uint64 (value, self->total);
      break;
    case PROP_SELF_SHARE:
      g_value_set_double (value, mg_code_item_get_self_share (self));
      break;
    case PROP_TOTAL_SHARE:
      g_value_set_double (value, mg_code_item_get_total_share (self));
      break;
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_MODULE:
      g_value_set_string (value, self->module);
      break;
    case PROP_SPREAD_MIN:
    case PROP_SPREAD_MEAN:
    case PROP_SPREAD_MAX:
      {
        MgSpreadFigures f;
        mg_code_item_get_spread (self, &f);
        g_value_set_double (value, id == PROP_SPREAD_MIN ? f.min : id == PROP_SPREAD_MEAN ? f.mean
                                                                                          : f.max);
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
mg_code_item_finalize (GObject *object)
{
  MgCodeItem *self = MG_CODE_ITEM (object);

  g_clear_pointer (&self->tree, mg_code_tree_unref);
  g_free (self->location);
  g_free (self->module);
  G_OBJECT_CLASS (mg_code_item_parent_class)->finalize (object);
}

static void
mg_code_item_class_init (MgCodeItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = mg_code_item_get_property;
  object_class->finalize = mg_code_item_finalize;
  props[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  props[PROP_SELF] = g_param_spec_uint64 ("self", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  props[PROP_TOTAL] = g_param_spec_uint64 ("total", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  props[PROP_SELF_SHARE] = g_param_spec_double ("self-share", NULL, NULL, 0, 100, 0, flags);
  props[PROP_TOTAL_SHARE] = g_param_spec_double ("total-share", NULL, NULL, 0, 100, 0, flags);
  props[PROP_LOCATION] = g_param_spec_string ("location", NULL, NULL, NULL, flags);
  props[PROP_MODULE] = g_param_spec_string ("module", NULL, NULL, NULL, flags);
  props[PROP_SPREAD_MIN] = g_param_spec_double ("spread-min", NULL, NULL, 0, 100, 0, flags);
  props[PROP_SPREAD_MEAN] = g_param_spec_double ("spread-mean", NULL, NULL, 0, 100, 0, flags);
  props[PROP_SPREAD_MAX] = g_param_spec_double ("spread-max", NULL, NULL, 0, 100, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
mg_code_item_init (MgCodeItem *self)
{
}

static MgCodeItem *
item_new (MgCodeTree *tree, const MgCallFunction *f, guint64 self_samples, guint64 total)
{
  MgCodeItem *self = g_object_new (MG_TYPE_CODE_ITEM, NULL);

  self->tree = mg_code_tree_ref (tree);
  self->function = f;
  self->self = self_samples;
  self->total = total;
  if (f && f->file)
    {
      g_autofree char *base = g_path_get_basename (f->file);
      /* Its hottest line in the selection, as the Source tab and the report. */
      guint line = mg_call_tree_get_line (tree->tree, f);
      self->location = line ? g_strdup_printf ("%s:%u", base, line) : g_strdup (base);
    }
  else
    self->location = g_strdup ("");
  self->module = f && f->module ? g_path_get_basename (f->module) : g_strdup ("");
  return self;
}

MgCodeItem *
mg_code_item_new_function (MgCodeTree *tree, guint i)
{
  guint64 self_samples, total;
  const MgCallFunction *f = mg_call_tree_get_function (tree->tree, i, &self_samples, &total);
  MgCodeItem *self = item_new (tree, f, self_samples, total);

  self->node = i;  /* the table's row */
  return self;
}

MgCodeItem *
mg_code_item_new_node (MgCodeTree *tree, MgCallTreeKind kind, guint node)
{
  guint64 self_samples, total;
  const MgCallFunction *f = mg_call_tree_get_node (tree->tree, kind, node, &self_samples, &total);
  MgCodeItem *self = item_new (tree, f, self_samples, total);

  self->is_node = TRUE;
  self->kind = kind;
  self->node = node;
  return self;
}

const char *
mg_code_item_get_name (MgCodeItem *self)
{
  return self->function ? self->function->name : "";
}

guint
mg_code_item_get_node (MgCodeItem *self)
{
  return self->is_node ? self->node : G_MAXUINT;
}

guint
mg_code_item_get_row (MgCodeItem *self)
{
  return self->is_node ? G_MAXUINT : self->node;
}

guint
mg_code_item_get_function_id (MgCodeItem *self)
{
  return self->function ? self->function->id : G_MAXUINT;
}

guint64
mg_code_item_get_self (MgCodeItem *self)
{
  return self->self;
}

guint64
mg_code_item_get_total (MgCodeItem *self)
{
  return self->total;
}

static double
share (MgCodeItem *self, guint64 samples)
{
  guint64 all = mg_call_tree_get_total (self->tree->tree);
  return all ? 100.0 * (double) samples / (double) all : 0;
}

double
mg_code_item_get_self_share (MgCodeItem *self)
{
  return share (self, self->self);
}

double
mg_code_item_get_total_share (MgCodeItem *self)
{
  return share (self, self->total);
}

const char *
mg_code_item_get_location (MgCodeItem *self)
{
  return self->location;
}

const char *
mg_code_item_get_module (MgCodeItem *self)
{
  return self->module;
}

gboolean
mg_code_item_get_spread (MgCodeItem *self, MgSpreadFigures *out)
{
  *out = (MgSpreadFigures) { 0 };
  if (self->is_node || self->function == NULL || !mg_code_tree_has_spread (self->tree))
    return FALSE;
  return mg_process_spread_get (self->tree->spread, self->function->id, MG_SPREAD_TOTAL, out);
}

char *
mg_code_item_format_spread (MgCodeItem *self, guint which)
{
  MgSpreadFigures f;

  if (!mg_code_item_get_spread (self, &f))
    return g_strdup ("");
  if (which == 1)
    return g_strdup_printf ("%.1f %%", f.mean);
  g_autofree char *who = mg_selection_stats_describe_process (
    self->tree->profile, (int) (which == 0 ? f.min_process : f.max_process));
  /* Translators: a function's share of one process's samples and that
   * process, e.g. "97.0 % (rank 3)"; %% is the percent sign */
  return g_strdup_printf (_("%.1f %% (%s)"), which == 0 ? f.min : f.max, who ? who : "");
}

GListModel *
mg_code_item_dup_children (MgCodeItem *self)
{
  guint n;

  if (!self->is_node)
    return NULL;
  n = mg_call_tree_get_n_children (self->tree->tree, self->kind, self->node);
  if (n == 0)
    return NULL;
  GListStore *store = g_list_store_new (MG_TYPE_CODE_ITEM);
  for (guint i = 0; i < n; i++)
    {
      guint child = mg_call_tree_get_child (self->tree->tree, self->kind, self->node, i);
      g_autoptr (MgCodeItem) item = mg_code_item_new_node (self->tree, self->kind, child);
      g_list_store_append (store, item);
    }
  return G_LIST_MODEL (store);
}
