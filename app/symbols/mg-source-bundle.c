/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "symbols/mg-source-bundle.h"

#include <glib/gi18n.h>
#include <string.h>

struct _MgSourceBundle {
  GObject parent_instance;
  gsize limit;
  gsize size;
  GHashTable *samples; /* path → guint64 samples (boxed in a pointer) */
  GPtrArray *texts;
  GPtrArray *omissions;
};

G_DEFINE_TYPE (MgSourceBundle, mg_source_bundle, G_TYPE_OBJECT)

void
mg_source_text_free (MgSourceText *text)
{
  if (text == NULL)
    return;
  g_free (text->path);
  g_bytes_unref (text->text);
  g_free (text);
}

void
mg_source_omission_free (MgSourceOmission *omission)
{
  if (omission == NULL)
    return;
  g_free (omission->path);
  g_free (omission->reason);
  g_free (omission);
}

static void
mg_source_bundle_finalize (GObject *object)
{
  MgSourceBundle *self = MG_SOURCE_BUNDLE (object);

  g_hash_table_unref (self->samples);
  g_ptr_array_unref (self->texts);
  g_ptr_array_unref (self->omissions);
  G_OBJECT_CLASS (mg_source_bundle_parent_class)->finalize (object);
}

static void
mg_source_bundle_class_init (MgSourceBundleClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mg_source_bundle_finalize;
}

static void
mg_source_bundle_init (MgSourceBundle *self)
{
  self->samples = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->texts = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_source_text_free);
  self->omissions = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_source_omission_free);
}

MgSourceBundle *
mg_source_bundle_new (gsize limit)
{
  MgSourceBundle *self = g_object_new (MG_TYPE_SOURCE_BUNDLE, NULL);

  self->limit = limit;
  return self;
}

void
mg_source_bundle_add (MgSourceBundle *self, const char *file, guint64 samples)
{
  guint64 *count;

  g_return_if_fail (MG_IS_SOURCE_BUNDLE (self));
  g_return_if_fail (file != NULL);
  count = g_hash_table_lookup (self->samples, file);
  if (count == NULL)
    {
      count = g_new0 (guint64, 1);
      g_hash_table_insert (self->samples, g_strdup (file), count);
    }
  *count += samples;
}

typedef struct {
  const char *path;
  guint64 samples;
} Candidate;

static int
by_samples_then_path (gconstpointer a, gconstpointer b)
{
  const Candidate *x = a;
  const Candidate *y = b;

  if (x->samples != y->samples)
    return x->samples > y->samples ? -1 : 1;
  return strcmp (x->path, y->path);
}

static void
omit (MgSourceBundle *self, const char *path, char *reason)
{
  MgSourceOmission *omission = g_new0 (MgSourceOmission, 1);

  omission->path = g_strdup (path);
  omission->reason = reason;
  g_ptr_array_add (self->omissions, omission);
}

/* Why a file could not be read, briefly: most are a system library's
 * sources, named by where they were built and not installed here. */
static char *
missing_reason (const char *path, const GError *error)
{
  if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return g_strdup_printf (_("it cannot be read: %s"), error->message);
  if (!g_path_is_absolute (path))
    return g_strdup (_("it is not on this machine (the path is relative to the folder the module "
                       "was built in)"));
  return g_strdup (_("it is not on this machine"));
}

static void
collect_one (MgSourceBundle *self, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GMappedFile) mapped = NULL;
  gsize length;
  MgSourceText *text;

  mapped = g_mapped_file_new (path, FALSE, &error);
  if (mapped == NULL)
    {
      omit (self, path, missing_reason (path, error));
      return;
    }
  length = g_mapped_file_get_length (mapped);
  if (length > self->limit - self->size)
    {
      /* In the report's units: its "at most 4.0 MiB" read "4.2 MB" here. */
      g_autofree char *size = g_format_size_full (length, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *left = g_format_size_full (self->limit - self->size,
                                                  G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *limit = g_format_size_full (self->limit, G_FORMAT_SIZE_IEC_UNITS);

      omit (self, path, g_strdup_printf (_("its %s do not fit in the %s left of the %s the profile keeps for source text"),
                                         size, left, limit));
      return;
    }
  if (length > 0 && memchr (g_mapped_file_get_contents (mapped), '\0', length) != NULL)
    {
      omit (self, path, g_strdup (_("it is not a text file")));
      return;
    }
  text = g_new0 (MgSourceText, 1);
  text->path = g_strdup (path);
  text->text = g_mapped_file_get_bytes (mapped);
  /* A copy, not the mapping: the file may change once the run is over. */
  if (length > 0)
    {
      GBytes *copy = g_bytes_new (g_bytes_get_data (text->text, NULL), length);

      g_bytes_unref (text->text);
      text->text = copy;
    }
  g_ptr_array_add (self->texts, text);
  self->size += length;
}

void
mg_source_bundle_collect (MgSourceBundle *self)
{
  g_autoptr (GArray) candidates = g_array_new (FALSE, FALSE, sizeof (Candidate));
  GHashTableIter iter;
  gpointer key, value;

  g_return_if_fail (MG_IS_SOURCE_BUNDLE (self));
  g_hash_table_iter_init (&iter, self->samples);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Candidate candidate = { key, *(guint64 *) value };

      g_array_append_val (candidates, candidate);
    }
  g_array_sort (candidates, by_samples_then_path);
  for (guint i = 0; i < candidates->len; i++)
    collect_one (self, g_array_index (candidates, Candidate, i).path);
}

GPtrArray *
mg_source_bundle_get_texts (MgSourceBundle *self)
{
  g_return_val_if_fail (MG_IS_SOURCE_BUNDLE (self), NULL);
  return self->texts;
}

GPtrArray *
mg_source_bundle_get_omissions (MgSourceBundle *self)
{
  g_return_val_if_fail (MG_IS_SOURCE_BUNDLE (self), NULL);
  return self->omissions;
}

gsize
mg_source_bundle_get_size (MgSourceBundle *self)
{
  g_return_val_if_fail (MG_IS_SOURCE_BUNDLE (self), 0);
  return self->size;
}
