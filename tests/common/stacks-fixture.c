/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <string.h>

#include "stacks-fixture.h"

#include "profile/mg-profile-internal.h"
#include "profile/mg-stack-set.h"

typedef struct {
  gint32 index;
  gboolean taken_given;
  guint64 taken, lost;
  guint32 state;
  GPtrArray *stacks;    /* GVariant (a(ut)u), as the member holds them */
  GArray *starts, *ends; /* double */
  GArray *counts;       /* guint32 (window, stack, count) triples */
} FixtureProcess;

struct _StacksFixture {
  GPtrArray *modules;   /* GVariant (ayay), as the member holds them */
  GHashTable *names;    /* name → MgStackFrame */
  GPtrArray *processes; /* FixtureProcess */
  guint n_processes;    /* "processes N"; 0: the profile's */
  guint line;           /* of the description being read, for messages */
};

static void
fixture_process_free (gpointer data)
{
  FixtureProcess *p = data;
  g_ptr_array_unref (p->stacks);
  g_array_unref (p->starts);
  g_array_unref (p->ends);
  g_array_unref (p->counts);
  g_free (p);
}

StacksFixture *
stacks_fixture_new (void)
{
  StacksFixture *self = g_new0 (StacksFixture, 1);
  self->modules = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  self->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->processes = g_ptr_array_new_with_free_func (fixture_process_free);
  return self;
}

void
stacks_fixture_free (StacksFixture *self)
{
  g_ptr_array_unref (self->modules);
  g_hash_table_unref (self->names);
  g_ptr_array_unref (self->processes);
  g_free (self);
}

guint
stacks_fixture_add_module (StacksFixture *self, const char *path, const guint8 *build_id,
                           gsize build_id_len)
{
  g_ptr_array_add (self->modules,
                   g_variant_ref_sink (g_variant_new (
                     "(^ay@ay)", path,
                     g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, build_id, build_id_len, 1))));
  return self->modules->len - 1;
}

typedef struct {
  guintptr address;
  GByteArray *build_id;
} LoadedModule;

/* The GNU build-id among the notes of the loaded object holding
 * data->address, into data->build_id. */
static int
find_build_id (struct dl_phdr_info *info, size_t size, void *data)
{
  LoadedModule *m = data;
  gboolean holds = FALSE;

  for (int i = 0; i < info->dlpi_phnum && !holds; i++)
    holds = info->dlpi_phdr[i].p_type == PT_LOAD
            && m->address >= info->dlpi_addr + info->dlpi_phdr[i].p_vaddr
            && m->address < info->dlpi_addr + info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz;
  if (!holds)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      const guint8 *at = (const guint8 *) (info->dlpi_addr + ph->p_vaddr);
      const guint8 *end = at + ph->p_memsz;

      if (ph->p_type != PT_NOTE)
        continue;
      while (at + sizeof (ElfW (Nhdr)) <= end)
        {
          const ElfW (Nhdr) *note = (const ElfW (Nhdr) *) at;
          const guint8 *name = at + sizeof *note;
          const guint8 *desc = name + ((note->n_namesz + 3) & ~3u);

          if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && memcmp (name, "GNU", 4) == 0)
            {
              g_byte_array_append (m->build_id, desc, note->n_descsz);
              return 1;
            }
          at = desc + ((note->n_descsz + 3) & ~3u);
        }
    }
  return 1;
}

guint
stacks_fixture_add_loaded_module (StacksFixture *self, const char *path, gconstpointer address)
{
  g_autoptr (GByteArray) build_id = g_byte_array_new ();
  LoadedModule m = { (guintptr) address, build_id };

  dl_iterate_phdr (find_build_id, &m);
  return stacks_fixture_add_module (self, path, build_id->data, build_id->len);
}

void
stacks_fixture_name (StacksFixture *self, const char *name, guint32 module, guint64 vaddr)
{
  MgStackFrame *frame = g_new (MgStackFrame, 1);
  frame->module = module;
  frame->vaddr = vaddr;
  g_hash_table_replace (self->names, g_strdup (name), frame);
}

/* A mistake in a description is the test's own: it stops there. */
#define fixture_fail(self, ...) \
  g_error ("stacks fixture, line %u: %s", (self)->line, g_strdup_printf (__VA_ARGS__))

static guint64
parse_unsigned (StacksFixture *self, const char *text, guint64 max, const char *what)
{
  char *end = NULL;
  guint64 v;

  errno = 0;
  v = g_ascii_strtoull (text, &end, 0);
  if (text[0] == '\0' || text[0] == '-' || *end != '\0' || errno != 0 || v > max)
    fixture_fail (self, "“%s” is no %s", text, what);
  return v;
}

/* A number of seconds: "0.5", "5e-10" or "A/B" (computed as A / B, for
 * times no decimal gives exactly, 1/3). */
static double
parse_seconds (StacksFixture *self, const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "/", 2);
  double v[2] = { 0, 1 };

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *end = NULL;
      v[i] = g_ascii_strtod (parts[i], &end);
      if (parts[i][0] == '\0' || *end != '\0')
        fixture_fail (self, "“%s” is no time", text);
    }
  return v[0] / v[1];
}

static void
parse_windows (StacksFixture *self, FixtureProcess *p, char **tokens)
{
  if (tokens[0] != NULL && tokens[1] != NULL && g_str_equal (tokens[1], "over"))
    {
      guint n = (guint) parse_unsigned (self, tokens[0], G_MAXUINT32, "number of windows");
      double dt;

      if (tokens[2] == NULL || tokens[3] != NULL)
        fixture_fail (self, "“windows N over D” takes a duration");
      dt = parse_seconds (self, tokens[2]) / n;
      for (guint w = 0; w < n; w++)
        {
          double start = w * dt, end = (w + 1) * dt;
          g_array_append_val (p->starts, start);
          g_array_append_val (p->ends, end);
        }
      return;
    }
  for (guint i = 0; tokens[i] != NULL; i++)
    {
      const char *dots = strstr (tokens[i], "..");
      const char *plus = strrchr (tokens[i], '+');
      g_autofree char *first = NULL;
      double start, end;

      if (dots != NULL)
        {
          first = g_strndup (tokens[i], (gsize) (dots - tokens[i]));
          start = parse_seconds (self, first);
          end = parse_seconds (self, dots + 2);
        }
      else if (plus != NULL && plus != tokens[i])
        {
          first = g_strndup (tokens[i], (gsize) (plus - tokens[i]));
          start = parse_seconds (self, first);
          end = start + parse_seconds (self, plus + 1);
        }
      else
        fixture_fail (self, "window “%s” is neither START..END nor START+LENGTH", tokens[i]);
      g_array_append_val (p->starts, start);
      g_array_append_val (p->ends, end);
    }
}

/* One frame of a stack (the header says how frames are written). */
static MgStackFrame
parse_frame (StacksFixture *self, const char *text)
{
  guint32 module = self->modules->len > 0 ? 0 : MG_STACK_MODULE_UNKNOWN;
  const char *colon = strchr (text, ':');
  MgStackFrame frame;

  if (colon != NULL)
    {
      g_autofree char *which = g_strndup (text, (gsize) (colon - text));
      module = g_str_equal (which, "?")
                 ? MG_STACK_MODULE_UNKNOWN
                 : (guint32) parse_unsigned (self, which, G_MAXUINT32 - 1, "module");
      if (module != MG_STACK_MODULE_UNKNOWN && module >= self->modules->len)
        fixture_fail (self, "frame “%s”: the fixture has %u modules", text, self->modules->len);
      text = colon + 1;
    }
  if (g_ascii_isdigit (text[0]))
    return (MgStackFrame) { module, parse_unsigned (self, text, G_MAXUINT64, "address") };

  /* A name, perhaps with an offset. */
  const char *sign = strpbrk (text, "+-");
  g_autofree char *name = sign ? g_strndup (text, (gsize) (sign - text)) : g_strdup (text);
  const MgStackFrame *named = g_hash_table_lookup (self->names, name);
  if (named == NULL)
    fixture_fail (self, "frame “%s” is no address, nor a name given to the fixture", text);
  frame = *named;
  if (sign != NULL)
    {
      guint64 offset = parse_unsigned (self, sign + 1, G_MAXUINT64, "offset");
      frame.vaddr = *sign == '+' ? frame.vaddr + offset : frame.vaddr - offset;
    }
  return frame;
}

/* FRAMES (callers first) as the member's frames, innermost first (a
 * floating a(ut)). */
static GVariant *
parse_frames (StacksFixture *self, const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, ";", -1);
  GVariantBuilder frames;

  g_variant_builder_init (&frames, G_VARIANT_TYPE ("a(ut)"));
  for (guint i = g_str_equal (text, "-") ? 0 : g_strv_length (parts); i > 0; i--)
    {
      MgStackFrame frame = parse_frame (self, parts[i - 1]);
      g_variant_builder_add (&frames, "(ut)", frame.module, frame.vaddr);
    }
  return g_variant_builder_end (&frames);
}

/* A stack's options: its flags. */
static guint32
parse_flags (StacksFixture *self, char **tokens)
{
  guint32 flags = 0;

  for (guint i = 0; tokens[i] != NULL; i++)
    {
      if (g_str_equal (tokens[i], "mpi"))
        flags |= MG_STACK_MPI;
      else if (g_str_equal (tokens[i], "truncated"))
        flags |= MG_STACK_TRUNCATED;
      else if (g_str_equal (tokens[i], "unknown-frame"))
        flags |= MG_STACK_UNKNOWN_FRAME;
      else if ((g_str_equal (tokens[i], "thread") || g_str_equal (tokens[i], "flags"))
               && tokens[i + 1] != NULL)
        {
          gboolean thread = g_str_equal (tokens[i], "thread");
          guint64 v = parse_unsigned (self, tokens[i + 1], thread ? 0xfffe : G_MAXUINT32,
                                      thread ? "thread ordinal" : "flags");
          flags |= thread ? (guint32) (v + 1) << MG_STACK_THREAD_SHIFT : (guint32) v;
          i++;
        }
      else
        fixture_fail (self, "“%s” is no option of a stack (thread N, mpi, truncated, "
                      "unknown-frame, flags N)", tokens[i]);
    }
  return flags;
}

/* The process's number of the stack of these frames and flags, a new one
 * when it has none yet. */
static guint32
stack_number (FixtureProcess *p, GVariant *frames, guint32 flags)
{
  GVariant *stack = g_variant_ref_sink (g_variant_new ("(@a(ut)u)", frames, flags));

  for (guint i = 0; i < p->stacks->len; i++)
    if (g_variant_equal (g_ptr_array_index (p->stacks, i), stack))
      {
        g_variant_unref (stack);
        return i;
      }
  g_ptr_array_add (p->stacks, stack);
  return p->stacks->len - 1;
}

static FixtureProcess *
current_process (StacksFixture *self)
{
  if (self->processes->len == 0)
    fixture_fail (self, "stacks, windows and counts belong to a process: a “process” line first");
  return g_ptr_array_index (self->processes, self->processes->len - 1);
}

static void
parse_process (StacksFixture *self, char **tokens)
{
  FixtureProcess *p = g_new0 (FixtureProcess, 1);

  p->stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  p->starts = g_array_new (FALSE, FALSE, sizeof (double));
  p->ends = g_array_new (FALSE, FALSE, sizeof (double));
  p->counts = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (tokens[0] == NULL)
    fixture_fail (self, "“process” takes the process's index");
  p->index = (gint32) parse_unsigned (self, tokens[0], G_MAXINT32, "process index");
  for (guint i = 1; tokens[i] != NULL; i += 2)
    {
      guint64 v;

      if (tokens[i + 1] == NULL)
        fixture_fail (self, "“%s” takes a number", tokens[i]);
      v = parse_unsigned (self, tokens[i + 1], G_MAXUINT64, tokens[i]);
      if (g_str_equal (tokens[i], "taken"))
        {
          p->taken = v;
          p->taken_given = TRUE;
        }
      else if (g_str_equal (tokens[i], "lost"))
        p->lost = v;
      else if (g_str_equal (tokens[i], "state") && v <= G_MAXUINT32)
        p->state = (guint32) v;
      else
        fixture_fail (self, "“%s” is no field of a process (taken, lost, state)", tokens[i]);
    }
  g_ptr_array_add (self->processes, p);
}

/* "W FRAMES COUNT OPTIONS…" */
static void
parse_count (StacksFixture *self, char **tokens)
{
  FixtureProcess *p = current_process (self);
  guint32 triple[3];

  if (tokens[1] == NULL || tokens[2] == NULL)
    fixture_fail (self, "a count is “WINDOW FRAMES COUNT [OPTIONS]”");
  triple[0] = (guint32) parse_unsigned (self, tokens[0], G_MAXUINT32, "window");
  triple[2] = (guint32) parse_unsigned (self, tokens[2], G_MAXUINT32, "count");
  triple[1] = stack_number (p, parse_frames (self, tokens[1]), parse_flags (self, tokens + 3));
  g_array_append_vals (p->counts, triple, 3);
  if (!p->taken_given)
    p->taken += triple[2];
}

static void
parse_line (StacksFixture *self, char **tokens)
{
  const char *word = tokens[0];

  if (g_str_equal (word, "module"))
    {
      gsize len = 0;
      g_autofree guint8 *bytes = NULL;

      if (tokens[1] == NULL || (tokens[2] != NULL && tokens[3] != NULL))
        fixture_fail (self, "“module” takes a path and, optionally, a build-id in hex");
      if (tokens[2] != NULL)
        {
          if (strlen (tokens[2]) % 2 != 0)
            fixture_fail (self, "build-id “%s” has an odd number of digits", tokens[2]);
          len = strlen (tokens[2]) / 2;
          bytes = g_new0 (guint8, len + 1);
          for (gsize i = 0; i < len; i++)
            {
              int hi = g_ascii_xdigit_value (tokens[2][2 * i]);
              int lo = g_ascii_xdigit_value (tokens[2][2 * i + 1]);
              if (hi < 0 || lo < 0)
                fixture_fail (self, "build-id “%s” is not hex", tokens[2]);
              bytes[i] = (guint8) (hi << 4 | lo);
            }
        }
      stacks_fixture_add_module (self, tokens[1], bytes, len);
    }
  else if (g_str_equal (word, "processes") && tokens[1] != NULL && tokens[2] == NULL)
    self->n_processes = (guint) parse_unsigned (self, tokens[1], G_MAXUINT32, "number");
  else if (g_str_equal (word, "process"))
    parse_process (self, tokens + 1);
  else if (g_str_equal (word, "windows"))
    parse_windows (self, current_process (self), tokens + 1);
  else if (g_str_equal (word, "stack") && tokens[1] != NULL)
    {
      FixtureProcess *p = current_process (self);
      stack_number (p, parse_frames (self, tokens[1]), parse_flags (self, tokens + 2));
    }
  else if (g_ascii_isdigit (word[0]))
    parse_count (self, tokens);
  else
    fixture_fail (self, "“%s”: a line is module, processes, process, windows, stack or a count",
                  word);
}

void
stacks_fixture_read (StacksFixture *self, const char *description)
{
  g_auto (GStrv) lines = g_strsplit (description, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *hash = strchr (lines[i], '#');
      char *save = NULL;
      g_autoptr (GPtrArray) tokens = g_ptr_array_new ();

      self->line = i + 1;
      if (hash != NULL)
        *hash = '\0';
      for (char *t = strtok_r (lines[i], " \t", &save); t != NULL;
           t = strtok_r (NULL, " \t", &save))
        g_ptr_array_add (tokens, t);
      if (tokens->len == 0)
        continue;
      g_ptr_array_add (tokens, NULL);
      parse_line (self, (char **) tokens->pdata);
    }
}

static GVariant *
end_process (const FixtureProcess *p)
{
  GVariantBuilder stacks;

  g_variant_builder_init (&stacks, G_VARIANT_TYPE ("a(a(ut)u)"));
  for (guint i = 0; i < p->stacks->len; i++)
    g_variant_builder_add_value (&stacks, g_ptr_array_index (p->stacks, i));
  return g_variant_new ("(ittu@a(a(ut)u)@ad@ad@a(uuu))", p->index, p->taken, p->lost, p->state,
                        g_variant_builder_end (&stacks),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, p->starts->data,
                                                   p->starts->len, sizeof (double)),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, p->ends->data,
                                                   p->ends->len, sizeof (double)),
                        g_variant_new_fixed_array (G_VARIANT_TYPE ("(uuu)"), p->counts->data,
                                                   p->counts->len / 3, 3 * sizeof (guint32)));
}

GVariant *
stacks_fixture_end (StacksFixture *self)
{
  GVariantBuilder modules, procs;

  g_variant_builder_init (&modules, G_VARIANT_TYPE ("a(ayay)"));
  for (guint i = 0; i < self->modules->len; i++)
    g_variant_builder_add_value (&modules, g_ptr_array_index (self->modules, i));
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  for (guint i = 0; i < self->processes->len; i++)
    g_variant_builder_add_value (&procs, end_process (g_ptr_array_index (self->processes, i)));
  return g_variant_ref_sink (g_variant_new ("(@a(ayay)@a(ittua(a(ut)u)adada(uuu)))",
                                            g_variant_builder_end (&modules),
                                            g_variant_builder_end (&procs)));
}

void
stacks_fixture_install (StacksFixture *self, MgProfile *profile)
{
  guint n = self->n_processes ? self->n_processes : mg_profile_get_n_processes (profile);

  g_clear_pointer (&profile->stacks, g_variant_unref);
  profile->stacks = stacks_fixture_end (self);
  if (!mg_stack_set_check_payload (profile->stacks, n))
    g_error ("stacks fixture: the stacks do not pass the loader's check for %u processes "
             "(a process index or a count's window or stack out of range?)", n);
}

void
stacks_fixture_set (MgProfile *profile, const char *description)
{
  g_autoptr (StacksFixture) self = stacks_fixture_new ();

  stacks_fixture_read (self, description);
  stacks_fixture_install (self, profile);
}
