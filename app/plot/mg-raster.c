/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The graphs' rasteriser (see mg-raster.h). */
#include "mg-raster.h"

#include <math.h>
#include <string.h>

/* Each layer of a column is a span of device rows [top, bottom)
 * (fractional). Columns go in blocks of RASTER_BLOCK, row by row from the
 * block's highest top to its lowest bottom, every pixel computed by the
 * same branch-free formula: the compiler turns the fixed-length inner loops
 * into SIMD, several times faster than walking each column's runs and
 * part-covered rows with the branches that takes. */
#define RASTER_BLOCK 16

typedef struct {
  guint n_blocks;
  float *top[3], *bottom[3]; /* per column, RASTER_BLOCK × n_blocks */
  int *row0, *row1;          /* per block: the rows any of its spans touch */
  gpointer own;
} Spans;

/* A column with nothing to draw: spans that cover no row, and do not
 * widen their block's rows. */
#define EMPTY_TOP(height) ((float) (height) + 2)
#define EMPTY_BOTTOM -2.0f

static void
spans_alloc (Spans *spans, guint n)
{
  gsize padded;
  float *f;

  spans->n_blocks = (n + RASTER_BLOCK - 1) / RASTER_BLOCK;
  padded = (gsize) spans->n_blocks * RASTER_BLOCK;
  spans->own = g_malloc (padded * 6 * sizeof (float) + spans->n_blocks * 2 * sizeof (int));
  f = spans->own;
  for (guint l = 0; l < 3; l++)
    {
      spans->top[l] = f + (2 * l) * padded;
      spans->bottom[l] = f + (2 * l + 1) * padded;
    }
  spans->row0 = (int *) (f + 6 * padded);
  spans->row1 = spans->row0 + spans->n_blocks;
}

/* Four floats at once (GCC / clang vector extensions: SSE on x86-64, NEON
 * on ARM, plain scalar code elsewhere). */
typedef float Vf4 __attribute__ ((vector_size (16)));
typedef int Vi4 __attribute__ ((vector_size (16)));

static inline Vf4
vf4_select (Vi4 mask, Vf4 a, Vf4 b)
{
  return (Vf4) (((Vi4) a & mask) | ((Vi4) b & ~mask));
}

static inline Vf4
vf4_load (const float *p)
{
  Vf4 v;

  memcpy (&v, p, sizeof v);
  return v;
}

/* A column's line reaches half way to a neighbour with a value. */
static inline double
line_reach (double y, double neighbour)
{
  return isnan (neighbour) ? y : (neighbour + y) / 2;
}

/* Each column's three spans in device rows: the min–max band, mean ± sd
 * kept inside the band, and the mean line, which reaches half way to each
 * neighbour and is widened by the line width, so steep parts stay as thick
 * as flat ones and the columns join into one line. Clamped just outside the
 * rows: the pixels are the same however far a value is off the axis. ys:
 * the means as y (NaN: gap). Then per block the rows its spans touch. */
static inline double
map_y (const MgRasterMap *m, double v)
{
  return m->y_bottom - (v - m->lo) * m->scale;
}

static void
spans_compute (Spans *spans, const MgRasterColumns *cols, const MgRasterMap *m,
               const double *ys, int height)
{
  double y0 = m->y0, sy = m->sy;
  guint padded = spans->n_blocks * RASTER_BLOCK;

  for (guint c = 0; c < padded; c++)
    {
      double v[6], y, lo, hi, reach0, reach1;

      if (c >= cols->n || isnan (ys[c]))
        {
          for (guint l = 0; l < 3; l++)
            {
              spans->top[l][c] = EMPTY_TOP (height);
              spans->bottom[l][c] = EMPTY_BOTTOM;
            }
          continue;
        }
      y = ys[c];
      lo = cols->lo[c];
      hi = cols->hi[c];
      v[0] = map_y (m, hi);
      v[1] = map_y (m, lo);
      v[2] = map_y (m, MIN (cols->mean[c] + cols->sd[c], hi));
      v[3] = map_y (m, MAX (cols->mean[c] - cols->sd[c], lo));
      reach0 = c > 0 ? line_reach (y, ys[c - 1]) : y;
      reach1 = c + 1 < cols->n ? line_reach (y, ys[c + 1]) : y;
      v[4] = MIN (MIN (reach0, reach1), y) - m->line_width / 2;
      v[5] = MAX (MAX (reach0, reach1), y) + m->line_width / 2;
      for (guint l = 0; l < 3; l++)
        {
          spans->top[l][c] = (float) CLAMP ((v[2 * l] - y0) * sy, -1.0, height + 1.0);
          spans->bottom[l][c] = (float) CLAMP ((v[2 * l + 1] - y0) * sy, -1.0, height + 1.0);
        }
    }

  for (guint b = 0; b < spans->n_blocks; b++)
    {
      Vf4 top = vf4_load (spans->top[0] + b * RASTER_BLOCK);
      Vf4 bottom = vf4_load (spans->bottom[0] + b * RASTER_BLOCK);
      float row0 = height, row1 = 0;

      for (guint l = 0; l < 3; l++)
        for (guint k = 0; k < RASTER_BLOCK; k += 4)
          {
            Vf4 t = vf4_load (spans->top[l] + b * RASTER_BLOCK + k);
            Vf4 u = vf4_load (spans->bottom[l] + b * RASTER_BLOCK + k);

            top = vf4_select (t < top, t, top);
            bottom = vf4_select (u > bottom, u, bottom);
          }
      for (guint i = 0; i < 4; i++)
        {
          row0 = MIN (row0, top[i]);
          row1 = MAX (row1, bottom[i]);
        }
      /* Spans lie in [-1, height + 1]: floor is (int) (v + 1) - 1 there,
       * ceil (int) v plus one for a fraction; then back inside the rows. */
      spans->row0[b] = MAX ((int) (row0 + 1) - 1, 0);
      spans->row1[b] = MIN ((int) row1 + (row1 > (int) row1), height);
    }
}

/* How much of the row [r_top, r_bottom) the spans [top, bottom) cover:
 * min (bottom, r_bottom) - max (top, r_top), at least 0 (never more than
 * 1, the row's height). */
static inline Vf4
coverage4 (const float *top, const float *bottom, Vf4 r_top, Vf4 r_bottom)
{
  Vf4 t = vf4_load (top), b = vf4_load (bottom), c;
  const Vf4 zero = { 0, 0, 0, 0 };

  c = vf4_select (b < r_bottom, b, r_bottom) - vf4_select (t > r_top, t, r_top);
  return vf4_select (c > zero, c, zero);
}

/* Rows [row0, row1) of one block of columns into the mask: per pixel the
 * coverage of each layer and their combined alpha, four columns at a time.
 * width: the block's columns inside the mask. */
static void
raster_block (guint8 *pixels, int stride, int row0, int row1, const Spans *spans, guint b,
              guint width, const float alphas[3])
{
  const Vf4 one = { 1, 1, 1, 1 };
  const Vf4 a0 = one * alphas[0], a1 = one * alphas[1], a2 = one * alphas[2];
  guint first = b * RASTER_BLOCK;

  for (int r = row0; r < row1; r++)
    {
      Vf4 r_top = one * (float) r, r_bottom = r_top + one;
      guint8 out[RASTER_BLOCK];

      for (guint k = 0; k < RASTER_BLOCK; k += 4)
        {
          guint c = first + k;
          Vf4 keep = (one - a0 * coverage4 (spans->top[0] + c, spans->bottom[0] + c, r_top, r_bottom))
                     * (one - a1 * coverage4 (spans->top[1] + c, spans->bottom[1] + c, r_top, r_bottom))
                     * (one - a2 * coverage4 (spans->top[2] + c, spans->bottom[2] + c, r_top, r_bottom));
          Vi4 alpha = __builtin_convertvector ((one - keep) * 255 + 0.5f, Vi4);

          for (guint i = 0; i < 4; i++)
            out[k + i] = (guint8) alpha[i];
        }
      memcpy (pixels + r * stride, out, width);
    }
}

void
mg_raster (guint8 *pixels, int stride, int height, const MgRasterColumns *cols,
           const MgRasterMap *map, int *row0, int *row1)
{
  g_autofree double *ys = g_new (double, MAX (cols->n, 1));
  Spans spans;

  for (guint c = 0; c < cols->n; c++)
    ys[c] = map_y (map, cols->mean[c]);
  spans_alloc (&spans, cols->n);
  spans_compute (&spans, cols, map, ys, height);
  *row0 = G_MAXINT;
  *row1 = 0;
  for (guint b = 0; b < spans.n_blocks; b++)
    {
      raster_block (pixels + b * RASTER_BLOCK, stride, spans.row0[b], spans.row1[b], &spans, b,
                    MIN (RASTER_BLOCK, cols->n - b * RASTER_BLOCK), map->alphas);
      if (spans.row0[b] < spans.row1[b])
        {
          *row0 = MIN (*row0, spans.row0[b]);
          *row1 = MAX (*row1, spans.row1[b]);
        }
    }
  g_free (spans.own);
}
