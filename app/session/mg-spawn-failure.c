/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The start failures that execve reports with a misleading errno, told
 * from the first bytes of the file: the kernel reads a #! line itself and
 * says ENOENT when its interpreter is missing, although the script is
 * there; a text file without one is ENOEXEC, which shells hide by running
 * it with /bin/sh. */
#include "mg-config.h"

#include "mg-spawn-failure.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

/* The kernel reads at most this much of a #! line (BINPRM_BUF_SIZE). */
#define HEAD_SIZE 256

/* The first bytes of path, NUL-terminated; the count, -1 when unreadable. */
static gssize
read_head (const char *path, char *head, gsize size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  gssize n;

  if (fd < 0)
    return -1;
  n = read (fd, head, size - 1);
  close (fd);
  head[MAX (n, 0)] = '\0';
  return n;
}

/* The interpreter a #! line names, or NULL when head has none. */
static char *
script_interpreter (const char *head)
{
  const char *start, *end;

  if (strncmp (head, "#!", 2) != 0)
    return NULL;
  start = head + 2;
  while (*start == ' ' || *start == '\t')
    start++;
  end = start;
  while (*end != '\0' && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r')
    end++;
  return end > start ? g_strndup (start, end - start) : NULL;
}

char *
mg_spawn_failure_describe (const char *path, const char *name, int error_number)
{
  char head[HEAD_SIZE];
  g_autofree char *interpreter = NULL;

  if (read_head (path, head, sizeof head) >= 0)
    {
      interpreter = script_interpreter (head);
      if (interpreter != NULL && !g_file_test (interpreter, G_FILE_TEST_EXISTS))
        return g_strdup_printf (_("cannot start %s: its #! line names the interpreter %s, which "
                                  "does not exist here (correct the script's first line, or "
                                  "install that interpreter)"), name, interpreter);
      if (interpreter != NULL && (g_file_test (interpreter, G_FILE_TEST_IS_DIR)
                                  || !g_file_test (interpreter, G_FILE_TEST_IS_EXECUTABLE)))
        return g_strdup_printf (_("cannot start %s: its #! line names %s, which is not an "
                                  "executable program (correct the script's first line)"),
                                name, interpreter);
      if (interpreter == NULL && error_number == ENOEXEC && strncmp (head, "\177ELF", 4) != 0)
        return g_strdup_printf (_("cannot start %s: it is neither a program nor a script with a "
                                  "#! line (a shell runs such a file with /bin/sh: add "
                                  "“#!/bin/sh” as its first line, or profile “sh %s”)"),
                                name, name);
    }
  return g_strdup_printf (_("cannot start %s: %s (check that it is a program for this machine)"),
                          name, g_strerror (error_number));
}
