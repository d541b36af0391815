/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The formatter behind allinea_safe_*printf and mg_safe_vsnprintf.
 *
 * Floating point is converted exactly, without libc: a finite double is
 * m * 2^e, which equals the integer D = m * 2^e (e >= 0) or D = m * 5^-e
 * (e < 0) scaled by 10^-max(-e, 0). D is computed with a small fixed-size
 * big integer and written out in decimal; %f, %e and %g then round that
 * exact digit string (ties to even, like glibc in the default rounding
 * mode). Precision beyond MG_MAX_FLOAT_PRECISION is padded with zeros. */
#include "mg-safe-format.h"

#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "allinea_safe_syscalls.h"

#define MG_MAX_FLOAT_PRECISION 400
#define MG_BIG_WORDS 84                 /* 2688 bits: m * 5^1074 fits */
#define MG_MAX_DIGITS 820               /* decimal digits of such a number */

/* ---- output sinks ---- */

typedef struct {
  char *buf;        /* snprintf target, or NULL */
  size_t size;
  size_t length;    /* total produced so far */
  int fd;           /* fd target when buf is NULL, else -1 */
  size_t pending;
  char staging[512];
} MgSink;

static void
mg_sink_flush (MgSink *sink)
{
  if (sink->fd >= 0 && sink->pending > 0)
    allinea_safe_write (sink->fd, sink->staging, sink->pending);
  sink->pending = 0;
}

static void
mg_sink_put (MgSink *sink, const char *s, size_t n)
{
  if (sink->fd >= 0)
    {
      while (n > 0)
        {
          size_t room = sizeof sink->staging - sink->pending;
          size_t take = n < room ? n : room;
          memcpy (sink->staging + sink->pending, s, take);
          sink->pending += take;
          s += take;
          n -= take;
          if (sink->pending == sizeof sink->staging)
            mg_sink_flush (sink);
        }
    }
  else if (sink->size > 0 && sink->length < sink->size - 1)
    {
      size_t room = sink->size - 1 - sink->length;
      memcpy (sink->buf + sink->length, s, n < room ? n : room);
    }
  sink->length += n;
}

static void
mg_sink_repeat (MgSink *sink, char c, size_t n)
{
  char block[32];
  memset (block, c, sizeof block);
  while (n > 0)
    {
      size_t take = n < sizeof block ? n : sizeof block;
      mg_sink_put (sink, block, take);
      n -= take;
    }
}

/* ---- a conversion specification ---- */

typedef struct {
  int left, plus, space, alt, zero;
  int width;
  int precision;     /* -1: none */
  int length;        /* 'H' hh, 'h', 'l', 'q' ll, 'j', 'z', 't', 'L' */
  char conv;
} MgSpec;

/* Emits prefix (sign, 0x) and body with width/zero padding. zeros are extra
 * leading zeros already decided by the caller (integer precision). */
static void
mg_emit_padded (MgSink *sink, const MgSpec *spec, const char *prefix,
                size_t zeros, const char *body, size_t body_len, int zero_pad_ok)
{
  size_t prefix_len = strlen (prefix);
  size_t total = prefix_len + zeros + body_len;
  size_t pad = (spec->width > 0 && (size_t) spec->width > total) ? (size_t) spec->width - total : 0;
  if (!spec->left && !(spec->zero && zero_pad_ok))
    mg_sink_repeat (sink, ' ', pad);
  mg_sink_put (sink, prefix, prefix_len);
  if (!spec->left && spec->zero && zero_pad_ok)
    mg_sink_repeat (sink, '0', pad);
  mg_sink_repeat (sink, '0', zeros);
  mg_sink_put (sink, body, body_len);
  if (spec->left)
    mg_sink_repeat (sink, ' ', pad);
}

/* ---- integers ---- */

static void
mg_format_integer (MgSink *sink, const MgSpec *spec, uintmax_t value, int negative)
{
  char digits[72];
  size_t n = 0;
  unsigned base = 10;
  const char *alphabet = "0123456789abcdef";
  if (spec->conv == 'o')
    base = 8;
  else if (spec->conv == 'x' || spec->conv == 'p')
    base = 16;
  else if (spec->conv == 'X')
    {
      base = 16;
      alphabet = "0123456789ABCDEF";
    }
  uintmax_t v = value;
  while (v != 0)
    {
      digits[sizeof digits - 1 - n++] = alphabet[v % base];
      v /= base;
    }
  /* Precision 0 with value 0 prints no digits (but "%#.0o" prints "0"). */
  int precision = spec->precision < 0 ? 1 : spec->precision;
  size_t zeros = (size_t) precision > n ? (size_t) precision - n : 0;
  const char *prefix = "";
  int is_signed = spec->conv == 'd' || spec->conv == 'i';
  if (is_signed)
    prefix = negative ? "-" : spec->plus ? "+" : spec->space ? " " : "";
  if (spec->alt && spec->conv == 'o' && zeros == 0 && (n == 0 || digits[sizeof digits - n] != '0'))
    zeros = 1;
  if ((spec->alt && value != 0 && spec->conv == 'x') || spec->conv == 'p')
    prefix = "0x";
  if (spec->alt && value != 0 && spec->conv == 'X')
    prefix = "0X";
  mg_emit_padded (sink, spec, prefix, zeros, digits + sizeof digits - n, n,
                  spec->precision < 0);
}

/* ---- exact decimal expansion of doubles ---- */

typedef struct {
  uint32_t w[MG_BIG_WORDS];   /* little-endian words */
  int used;
} MgBig;

static void
mg_big_mul_small (MgBig *b, uint32_t factor)
{
  uint64_t carry = 0;
  for (int i = 0; i < b->used; i++)
    {
      uint64_t t = (uint64_t) b->w[i] * factor + carry;
      b->w[i] = (uint32_t) t;
      carry = t >> 32;
    }
  if (carry != 0 && b->used < MG_BIG_WORDS)
    b->w[b->used++] = (uint32_t) carry;
}

static uint32_t
mg_big_div_small (MgBig *b, uint32_t divisor)
{
  uint64_t rem = 0;
  for (int i = b->used - 1; i >= 0; i--)
    {
      uint64_t cur = (rem << 32) | b->w[i];
      b->w[i] = (uint32_t) (cur / divisor);
      rem = cur % divisor;
    }
  while (b->used > 0 && b->w[b->used - 1] == 0)
    b->used--;
  return (uint32_t) rem;
}

/* Writes the exact decimal digits of |x| (finite, nonzero) into digits
 * (no leading zeros) and returns their count; *scale receives s such that
 * |x| = digits * 10^-s. */
static int
mg_exact_digits (double x, char *digits, int *scale)
{
  uint64_t bits;
  memcpy (&bits, &x, sizeof bits);
  int biased = (int) ((bits >> 52) & 0x7ff);
  uint64_t mantissa = bits & (((uint64_t) 1 << 52) - 1);
  int exponent;
  if (biased == 0)
    exponent = -1074;
  else
    {
      mantissa |= (uint64_t) 1 << 52;
      exponent = biased - 1075;
    }
  /* Strip factors of two to keep the numbers small. */
  while ((mantissa & 1) == 0)
    {
      mantissa >>= 1;
      exponent++;
    }
  MgBig big = { .w = { (uint32_t) mantissa, (uint32_t) (mantissa >> 32) },
                .used = mantissa >> 32 ? 2 : 1 };
  if (exponent >= 0)
    {
      for (int i = exponent; i > 0; i -= 31)
        mg_big_mul_small (&big, (uint32_t) 1 << (i < 31 ? i : 31));
      *scale = 0;
    }
  else
    {
      for (int i = -exponent; i > 0; i -= 13)   /* 5^13 < 2^32 */
        {
          uint32_t factor = 1;
          for (int j = 0; j < (i < 13 ? i : 13); j++)
            factor *= 5;
          mg_big_mul_small (&big, factor);
        }
      *scale = -exponent;
    }
  /* Groups of nine digits, least significant first, then reversed. */
  char reversed[MG_MAX_DIGITS + 9];
  int n = 0;
  while (big.used > 0)
    {
      uint32_t group = mg_big_div_small (&big, 1000000000u);
      for (int i = 0; i < 9; i++)
        {
          reversed[n++] = (char) ('0' + group % 10);
          group /= 10;
        }
    }
  while (n > 1 && reversed[n - 1] == '0')
    n--;
  for (int i = 0; i < n; i++)
    digits[i] = reversed[n - 1 - i];
  return n;
}

/* Rounds the digit string to its first keep digits (ties to even). Returns 1
 * when rounding carried out of the first digit: digits then holds "1" followed
 * by keep zeros (keep + 1 digits). keep may be 0 or negative. */
static int
mg_round_digits (char *digits, int n, int keep)
{
  if (keep >= n)
    return 0;
  int round_up;
  if (keep < 0)
    round_up = 0;
  else
    {
      char first = digits[keep];
      int rest_nonzero = 0;
      for (int i = keep + 1; i < n; i++)
        if (digits[i] != '0')
          {
            rest_nonzero = 1;
            break;
          }
      int previous_odd = keep > 0 && ((digits[keep - 1] - '0') & 1);
      round_up = first > '5' || (first == '5' && (rest_nonzero || previous_odd));
    }
  if (!round_up)
    return 0;
  int i = keep - 1;
  while (i >= 0 && digits[i] == '9')
    digits[i--] = '0';
  if (i >= 0)
    {
      digits[i]++;
      return 0;
    }
  /* All nines (or keep == 0): becomes 1 followed by zeros. */
  digits[0] = '1';
  for (int j = 1; j <= keep; j++)
    digits[j] = '0';
  return 1;
}

/* Digit at decimal position p (value 10^p) of digits * 10^point_exp where
 * point_exp is the power of the last digit. */
static char
mg_digit_at (const char *digits, int n, int last_power, int power)
{
  int index = n - 1 - (power - last_power);
  return index >= 0 && index < n ? digits[index] : '0';
}

typedef struct {
  char text[MG_MAX_DIGITS + MG_MAX_FLOAT_PRECISION + 16];
  size_t len;
} MgText;

static void
mg_text_add (MgText *t, char c)
{
  if (t->len < sizeof t->text)
    t->text[t->len++] = c;
}

/* Fixed notation of digits * 10^last_power, already rounded to precision. */
static void
mg_layout_fixed (MgText *out, const char *digits, int n, int last_power,
                 int precision, int alt)
{
  int top = n > 0 ? last_power + n - 1 : 0;
  if (top < 0)
    top = 0;
  for (int p = top; p >= 0; p--)
    mg_text_add (out, n > 0 ? mg_digit_at (digits, n, last_power, p) : '0');
  if (precision > 0 || alt)
    mg_text_add (out, '.');
  for (int p = -1; p >= -precision; p--)
    mg_text_add (out, n > 0 ? mg_digit_at (digits, n, last_power, p) : '0');
}

static void
mg_layout_exp (MgText *out, const char *digits, int n, int exp10, int precision,
               int alt, int upper)
{
  mg_text_add (out, n > 0 ? digits[0] : '0');
  if (precision > 0 || alt)
    mg_text_add (out, '.');
  for (int i = 1; i <= precision; i++)
    mg_text_add (out, i < n ? digits[i] : '0');
  mg_text_add (out, upper ? 'E' : 'e');
  mg_text_add (out, exp10 < 0 ? '-' : '+');
  unsigned e = (unsigned) (exp10 < 0 ? -exp10 : exp10);
  char buf[8];
  int k = 0;
  do
    {
      buf[k++] = (char) ('0' + e % 10);
      e /= 10;
    }
  while (e != 0);
  if (k < 2)
    buf[k++] = '0';
  while (k > 0)
    mg_text_add (out, buf[--k]);
}

/* Rounds |x| to precision digits after the point; fills digits and returns
 * the power of ten of the last digit kept through *last_power. */
static int
mg_round_fixed (double x, int precision, char *digits, int *last_power)
{
  if (x == 0)
    {
      *last_power = 0;
      return 0;
    }
  int scale;
  int n = mg_exact_digits (x, digits, &scale);
  int keep = n - scale + precision;   /* digits with power >= -precision */
  if (keep < 0)
    {
      *last_power = 0;
      return 0;
    }
  if (keep >= n)
    {
      *last_power = -scale;
      return n;
    }
  int carried = mg_round_digits (digits, n, keep);
  *last_power = -precision;
  if (keep == 0 && !carried)
    return 0;
  return keep + carried;
}

/* Rounds |x| to significant digits; returns digit count, *exp10 the power of
 * the first digit. x nonzero. */
static int
mg_round_significant (double x, int significant, char *digits, int *exp10)
{
  int scale;
  int n = mg_exact_digits (x, digits, &scale);
  *exp10 = n - 1 - scale;
  if (mg_round_digits (digits, n, significant))
    (*exp10)++;
  return n < significant ? n : significant;
}

static void
mg_format_double (MgSink *sink, const MgSpec *spec, double x)
{
  uint64_t bits;
  memcpy (&bits, &x, sizeof bits);
  int negative = (int) (bits >> 63);
  const char *sign = negative ? "-" : spec->plus ? "+" : spec->space ? " " : "";
  int upper = spec->conv == 'F' || spec->conv == 'E' || spec->conv == 'G';
  if (x != x || x - x != 0)   /* NaN or infinity */
    {
      const char *word = x != x ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
      mg_emit_padded (sink, spec, sign, 0, word, 3, 0);
      return;
    }
  if (negative)
    x = -x;
  int precision = spec->precision < 0 ? 6 : spec->precision;
  int extra_zeros = 0;
  if (precision > MG_MAX_FLOAT_PRECISION)
    {
      extra_zeros = precision - MG_MAX_FLOAT_PRECISION;
      precision = MG_MAX_FLOAT_PRECISION;
    }
  MgText out;   /* about 3 KiB of stack in all: fine for a getter */
  char digits[MG_MAX_DIGITS + 16];
  out.len = 0;
  char conv = spec->conv;
  if (conv == 'f' || conv == 'F')
    {
      int last_power;
      int n = mg_round_fixed (x, precision, digits, &last_power);
      mg_layout_fixed (&out, digits, n, last_power, precision, spec->alt);
    }
  else if (conv == 'e' || conv == 'E')
    {
      int exp10 = 0;
      int n = x == 0 ? 0 : mg_round_significant (x, precision + 1, digits, &exp10);
      mg_layout_exp (&out, digits, n, exp10, precision, spec->alt, upper);
      /* Padding zeros belong before the exponent: handled by refusing the
       * cap for %e (rare); see MG_MAX_FLOAT_PRECISION. */
      extra_zeros = 0;
    }
  else   /* g, G */
    {
      int p = precision == 0 ? 1 : precision;
      int exp10 = 0;
      int n = x == 0 ? 0 : mg_round_significant (x, p, digits, &exp10);
      if (exp10 < p && exp10 >= -4)
        {
          int fixed_precision = p - 1 - exp10;
          int last_power;
          n = mg_round_fixed (x, fixed_precision, digits, &last_power);
          mg_layout_fixed (&out, digits, n, last_power, fixed_precision, spec->alt);
        }
      else
        mg_layout_exp (&out, digits, n, exp10, p - 1, spec->alt, upper);
      if (!spec->alt)
        {
          /* Drop trailing zeros of the fraction, then a bare point. */
          size_t mantissa_end = out.len;
          for (size_t i = 0; i < out.len; i++)
            if (out.text[i] == 'e' || out.text[i] == 'E')
              {
                mantissa_end = i;
                break;
              }
          int has_point = 0;
          for (size_t i = 0; i < mantissa_end; i++)
            if (out.text[i] == '.')
              has_point = 1;
          if (has_point)
            {
              size_t end = mantissa_end;
              while (end > 0 && out.text[end - 1] == '0')
                end--;
              if (end > 0 && out.text[end - 1] == '.')
                end--;
              memmove (out.text + end, out.text + mantissa_end, out.len - mantissa_end);
              out.len -= mantissa_end - end;
            }
        }
      extra_zeros = 0;
    }
  if (extra_zeros == 0)
    {
      mg_emit_padded (sink, spec, sign, 0, out.text, out.len, 1);
      return;
    }
  /* Precision above the cap (%f only): the body is followed by zeros that
   * count towards the width. */
  size_t sign_len = strlen (sign);
  size_t total = sign_len + out.len + (size_t) extra_zeros;
  size_t pad = (spec->width > 0 && (size_t) spec->width > total) ? (size_t) spec->width - total : 0;
  if (!spec->left && !spec->zero)
    mg_sink_repeat (sink, ' ', pad);
  mg_sink_put (sink, sign, sign_len);
  if (!spec->left && spec->zero)
    mg_sink_repeat (sink, '0', pad);
  mg_sink_put (sink, out.text, out.len);
  mg_sink_repeat (sink, '0', (size_t) extra_zeros);
  if (spec->left)
    mg_sink_repeat (sink, ' ', pad);
}

/* ---- the format loop ---- */

static int
mg_parse_int (const char **p)
{
  int value = 0;
  while (**p >= '0' && **p <= '9')
    {
      if (value < 100000000)
        value = value * 10 + (**p - '0');
      (*p)++;
    }
  return value;
}

static void
mg_format (MgSink *sink, const char *fmt, va_list ap)
{
  const char *p = fmt;
  while (*p)
    {
      if (*p != '%')
        {
          const char *start = p;
          while (*p && *p != '%')
            p++;
          mg_sink_put (sink, start, (size_t) (p - start));
          continue;
        }
      const char *spec_start = p++;
      MgSpec spec = { .precision = -1 };
      for (;; p++)
        {
          if (*p == '-')
            spec.left = 1;
          else if (*p == '+')
            spec.plus = 1;
          else if (*p == ' ')
            spec.space = 1;
          else if (*p == '#')
            spec.alt = 1;
          else if (*p == '0')
            spec.zero = 1;
          else
            break;
        }
      if (*p == '*')
        {
          spec.width = va_arg (ap, int);
          if (spec.width < 0)
            {
              spec.left = 1;
              spec.width = spec.width == -2147483647 - 1 ? 0 : -spec.width;
            }
          p++;
        }
      else
        spec.width = mg_parse_int (&p);
      if (*p == '.')
        {
          p++;
          if (*p == '*')
            {
              spec.precision = va_arg (ap, int);
              if (spec.precision < 0)
                spec.precision = -1;
              p++;
            }
          else
            spec.precision = mg_parse_int (&p);
        }
      switch (*p)
        {
        case 'h':
          spec.length = p[1] == 'h' ? 'H' : 'h';
          p += p[1] == 'h' ? 2 : 1;
          break;
        case 'l':
          spec.length = p[1] == 'l' ? 'q' : 'l';
          p += p[1] == 'l' ? 2 : 1;
          break;
        case 'q': case 'j': case 'z': case 't': case 'L':
          spec.length = *p++;
          break;
        default:
          break;
        }
      spec.conv = *p;
      switch (spec.conv)
        {
        case 'd':
        case 'i':
          {
            intmax_t v;
            switch (spec.length)
              {
              case 'H': v = (signed char) va_arg (ap, int); break;
              case 'h': v = (short) va_arg (ap, int); break;
              case 'l': v = va_arg (ap, long); break;
              case 'q': case 'L': v = va_arg (ap, long long); break;
              case 'j': v = va_arg (ap, intmax_t); break;
              case 'z': v = va_arg (ap, ssize_t); break;
              case 't': v = va_arg (ap, ptrdiff_t); break;
              default: v = va_arg (ap, int); break;
              }
            uintmax_t magnitude = v < 0 ? (uintmax_t) 0 - (uintmax_t) v : (uintmax_t) v;
            mg_format_integer (sink, &spec, magnitude, v < 0);
            break;
          }
        case 'u':
        case 'o':
        case 'x':
        case 'X':
          {
            uintmax_t v;
            switch (spec.length)
              {
              case 'H': v = (unsigned char) va_arg (ap, unsigned); break;
              case 'h': v = (unsigned short) va_arg (ap, unsigned); break;
              case 'l': v = va_arg (ap, unsigned long); break;
              case 'q': case 'L': v = va_arg (ap, unsigned long long); break;
              case 'j': v = va_arg (ap, uintmax_t); break;
              case 'z': v = va_arg (ap, size_t); break;
              case 't': v = (uintmax_t) va_arg (ap, ptrdiff_t); break;
              default: v = va_arg (ap, unsigned); break;
              }
            mg_format_integer (sink, &spec, v, 0);
            break;
          }
        case 'p':
          {
            void *ptr = va_arg (ap, void *);
            if (ptr == NULL)   /* glibc spelling */
              {
                MgSpec plain = spec;
                plain.zero = 0;
                mg_emit_padded (sink, &plain, "", 0, "(nil)", 5, 0);
              }
            else
              mg_format_integer (sink, &spec, (uintptr_t) ptr, 0);
            break;
          }
        case 'c':
          {
            char c = (char) va_arg (ap, int);
            mg_emit_padded (sink, &spec, "", 0, &c, 1, 0);
            break;
          }
        case 's':
          {
            const char *s = va_arg (ap, const char *);
            if (s == NULL)
              s = "(null)";
            size_t len = 0;
            while ((spec.precision < 0 || len < (size_t) spec.precision) && s[len])
              len++;
            mg_emit_padded (sink, &spec, "", 0, s, len, 0);
            break;
          }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
          {
            double v = spec.length == 'L' ? (double) va_arg (ap, long double)
                                          : va_arg (ap, double);
            mg_format_double (sink, &spec, v);
            break;
          }
        case '%':
          mg_sink_put (sink, "%", 1);
          break;
        default:
          /* Unknown, %n or a truncated specification: print it as written. */
          if (*p == '\0')
            {
              mg_sink_put (sink, spec_start, (size_t) (p - spec_start));
              continue;
            }
          mg_sink_put (sink, spec_start, (size_t) (p - spec_start + 1));
          break;
        }
      p++;
    }
}

int
mg_safe_vsnprintf (char *buf, size_t size, const char *fmt, va_list ap)
{
  MgSink sink = { .buf = buf, .size = size, .fd = -1 };
  va_list copy;
  va_copy (copy, ap);
  mg_format (&sink, fmt, copy);
  va_end (copy);
  if (size > 0)
    buf[sink.length < size ? sink.length : size - 1] = '\0';
  return sink.length > 0x7fffffff ? 0x7fffffff : (int) sink.length;
}

int
mg_safe_snprintf (char *buf, size_t size, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  int n = mg_safe_vsnprintf (buf, size, fmt, ap);
  va_end (ap);
  return n;
}

MG_API void
allinea_safe_vfprintf (int fd, const char *format, va_list ap)
{
  MgSink sink = { .fd = fd };
  va_list copy;
  va_copy (copy, ap);
  mg_format (&sink, format, copy);
  va_end (copy);
  mg_sink_flush (&sink);
}

MG_API void
allinea_safe_fprintf (int fd, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  allinea_safe_vfprintf (fd, format, ap);
  va_end (ap);
}

MG_API void
allinea_safe_printf (const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  allinea_safe_vfprintf (STDOUT_FILENO, format, ap);
  va_end (ap);
}
