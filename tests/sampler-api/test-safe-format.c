/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mg_safe_vsnprintf and allinea_safe_*printf against glibc's snprintf. */
#include <glib.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "allinea_safe_syscalls.h"
#include "mg-safe-format.h"

/* The formats are data here, compared against libc. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static int mismatches;
static int compared;

static void
compare_double (const char *fmt, double v)
{
  char expected[2048], got[2048];
  /* glibc drops the zeros C17 7.21.6.1 requires for '#' with %g when
   * rounding carries into a new power of ten ("1.e+06"); checked by hand
   * in test_floats instead. */
  if (strchr (fmt, '#') && strchr (fmt, 'g') && v == 999999.5)
    return;
  int n_expected = snprintf (expected, sizeof expected, fmt, v);
  int n_got = mg_safe_snprintf (got, sizeof got, fmt, v);
  compared++;
  if (n_expected != n_got || strcmp (expected, got) != 0)
    {
      if (mismatches++ < 20)
        g_test_message ("format \"%s\" of %.17g: libc \"%s\", ours \"%s\"", fmt, v, expected, got);
    }
}

static void
test_floats (void)
{
  const char *formats[] = {
    "%f", "%.0f", "%.1f", "%.2f", "%.3f", "%.10f", "%.17f", "%.30f", "%#.0f",
    "%+12.4f", "%-12.3f|", "%012.3f", "% f", "%F", "%8f",
    "%e", "%.0e", "%.1e", "%.3e", "%.16e", "%.20e", "%E", "%#.0e", "%+15.5e", "%-15.5e|", "%015.5e",
    "%g", "%.0g", "%.1g", "%.3g", "%.10g", "%.17g", "%#g", "%#.3g", "%G", "% g", "%-12g|", "%012g",
  };
  double specials[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, 3.5, -2.5, 0.125, 0.375, 2.675, 1e-5, 9.9999995e-5,
    0.0001, 123456.0, 999999.5, 9.5, 99.95, 0.05, 0.15, 0.25, 0.35, 1e15, 1e16, 1e17, 1e21,
    1e22, 1e23, 123456789012345678.0, 3.141592653589793, 2.718281828459045, 1.0 / 3.0,
    5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e300, 1e-300, 4.35, 0.045,
    1024.0, 65535.0, 1e-10, 6.02214076e23, 1.602176634e-19,
  };
  for (size_t f = 0; f < G_N_ELEMENTS (formats); f++)
    for (size_t i = 0; i < G_N_ELEMENTS (specials); i++)
      compare_double (formats[f], specials[i]);

  GRand *rand = g_rand_new_with_seed (4242);
  for (int i = 0; i < 4000; i++)
    {
      /* Ordinary magnitudes, and arbitrary bit patterns. */
      double v;
      if (i % 2 == 0)
        v = g_rand_double_range (rand, -1, 1) * pow (10, g_rand_int_range (rand, -12, 16));
      else
        {
          guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
          memcpy (&v, &bits, sizeof v);
          if (!isfinite (v))
            continue;
        }
      compare_double (formats[(size_t) i % G_N_ELEMENTS (formats)], v);
      compare_double ("%.6e", v);
      compare_double ("%g", v);
    }
  g_rand_free (rand);

  double nonfinite[] = { INFINITY, -INFINITY, NAN, -NAN };
  const char *nf_formats[] = { "%f", "%e", "%g", "%F", "%E", "%G", "%8f|", "%-8e|", "%08g", "%+f" };
  for (size_t f = 0; f < G_N_ELEMENTS (nf_formats); f++)
    for (size_t i = 0; i < G_N_ELEMENTS (nonfinite); i++)
      compare_double (nf_formats[f], nonfinite[i]);

  char buf[64];
  mg_safe_snprintf (buf, sizeof buf, "%#g|%#.3g", 999999.5, 999.5);
  g_assert_cmpstr (buf, ==, "1.00000e+06|1.00e+03");

  g_test_message ("%d float conversions compared", compared);
  g_assert_cmpint (mismatches, ==, 0);
}

#define CHECK_INT(fmt, ...) \
  G_STMT_START { \
    char e_[512], g_[512]; \
    int ne_ = snprintf (e_, sizeof e_, fmt, __VA_ARGS__); \
    int ng_ = mg_safe_snprintf (g_, sizeof g_, fmt, __VA_ARGS__); \
    g_assert_cmpstr (g_, ==, e_); \
    g_assert_cmpint (ng_, ==, ne_); \
  } G_STMT_END

static void
test_integers_and_strings (void)
{
  int ints[] = { 0, 1, -1, 7, 42, -42, 12345, -99999, G_MAXINT, G_MININT };
  const char *int_formats[] = {
    "%d", "%i", "%5d", "%-5d|", "%05d", "%+d", "% d", "%.3d", "%.0d", "%8.3d", "%-+8.3d|",
    "%u", "%x", "%X", "%#x", "%#X", "%#o", "%o", "%08x", "%#010x", "%#.0o", "%+05d", "%-05d|",
    "%hhd", "%hd", "%hhu", "%hx",
  };
  for (size_t f = 0; f < G_N_ELEMENTS (int_formats); f++)
    for (size_t i = 0; i < G_N_ELEMENTS (ints); i++)
      CHECK_INT (int_formats[f], ints[i]);

  long longs[] = { 0, -1, LONG_MAX, LONG_MIN, 1234567890123L };
  for (size_t i = 0; i < G_N_ELEMENTS (longs); i++)
    {
      CHECK_INT ("%ld", longs[i]);
      CHECK_INT ("%lu", (unsigned long) longs[i]);
      CHECK_INT ("%lx", (unsigned long) longs[i]);
      CHECK_INT ("%lld", (long long) longs[i]);
      CHECK_INT ("%llu", (unsigned long long) longs[i]);
      CHECK_INT ("%llx", (unsigned long long) longs[i]);
      CHECK_INT ("%#llo", (unsigned long long) longs[i]);
      CHECK_INT ("%zu", (size_t) longs[i]);
      CHECK_INT ("%zd", (ssize_t) longs[i]);
      CHECK_INT ("%jd", (intmax_t) longs[i]);
      CHECK_INT ("%20.15ld|", longs[i]);
    }
  CHECK_INT ("%*d|%-*d|%.*d", 6, 42, 6, 42, 4, 42);
  CHECK_INT ("%*d|", -6, 42);
  CHECK_INT ("%.*f|%*.*e", 2, 3.14159, 12, 3, 2.5e10);
  CHECK_INT ("%s|%10s|%-10s|%.3s|%10.3s|%c|%5c|%-3c|%%", "metrograph", "abc", "abc",
             "metrograph", "metrograph", 'x', 'y', 'z');
  int local;
  CHECK_INT ("%p|%20p|%-20p|", (void *) &local, (void *) &local, (void *) &local);
  CHECK_INT ("%p|%10p|", (void *) NULL, (void *) NULL);
  CHECK_INT ("mixed %d %s %5.2f %x %c %lu%%", -3, "str", 2.345, 255u, 'q', 99ul);

  char buf[64];
  /* NULL at run time, unknown to the compiler's format checker. */
  const char *null_string = g_getenv ("MG_TEST_SURELY_UNSET_VARIABLE");
  g_assert_null (null_string);
  g_assert_cmpint (mg_safe_snprintf (buf, sizeof buf, "[%s]", null_string), ==, 8);
  g_assert_cmpstr (buf, ==, "[(null)]");
}

static void
test_truncation (void)
{
  char buf[8];
  memset (buf, 'Z', sizeof buf);
  g_assert_cmpint (mg_safe_snprintf (buf, 5, "hello %s", "world"), ==, 11);
  g_assert_cmpstr (buf, ==, "hell");
  g_assert_cmpint (buf[5], ==, 'Z');
  buf[0] = 'Q';
  g_assert_cmpint (mg_safe_snprintf (buf, 0, "%d", 12345), ==, 5);
  g_assert_cmpint (buf[0], ==, 'Q');
  g_assert_cmpint (mg_safe_snprintf (buf, 1, "%d", 12345), ==, 5);
  g_assert_cmpstr (buf, ==, "");
}

/* Reads everything from fd until EOF. */
static GString *
drain (int fd)
{
  GString *s = g_string_new (NULL);
  char chunk[4096];
  ssize_t n;
  while ((n = read (fd, chunk, sizeof chunk)) > 0)
    g_string_append_len (s, chunk, n);
  return s;
}

static void
call_vfprintf (int fd, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  allinea_safe_vfprintf (fd, fmt, ap);
  va_end (ap);
}

static void
test_fd_printf (void)
{
  int fds[2];
  g_assert_cmpint (pipe (fds), ==, 0);
  /* More than the 512-byte staging buffer, to cross a flush. */
  char long_text[1500];
  memset (long_text, 'k', sizeof long_text - 1);
  long_text[sizeof long_text - 1] = '\0';
  allinea_safe_fprintf (fds[1], "a=%d b=%s c=%.3f\n", 7, "eight", 9.0625);
  call_vfprintf (fds[1], "[%s] %e\n", long_text, 1e-7);
  int saved_stdout = dup (STDOUT_FILENO);
  dup2 (fds[1], STDOUT_FILENO);
  allinea_safe_printf ("stdout %u%%\n", 100u);
  dup2 (saved_stdout, STDOUT_FILENO);
  close (saved_stdout);
  close (fds[1]);
  GString *got = drain (fds[0]);
  close (fds[0]);
  g_autofree char *expected = g_strdup_printf ("a=7 b=eight c=9.062\n[%s] %e\nstdout 100%%\n",
                                               long_text, 1e-7);
  g_assert_cmpstr (got->str, ==, expected);
  g_string_free (got, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/safe-format/floats-vs-libc", test_floats);
  g_test_add_func ("/safe-format/integers-strings-vs-libc", test_integers_and_strings);
  g_test_add_func ("/safe-format/truncation", test_truncation);
  g_test_add_func ("/safe-format/fd-printf", test_fd_printf);
  return g_test_run ();
}
