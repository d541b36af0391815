/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MgCallShape's fields, for mg-call-tree.c, which sums counts over them. */
#pragma once

#include "mg-call-shape.h"

G_BEGIN_DECLS

typedef struct {
  GArray *function;    /* guint by node: namer id; G_MAXUINT for the root ([0]) */
  GArray *parent;      /* guint by node; G_MAXUINT for the root. A parent
                        * comes before its children */
  guint64 *keys;       /* open addressing: (parent << 32 | function) + 1, 0 empty */
  guint *values;       /* the node of keys[i] */
  gsize capacity;      /* a power of two, kept under half full; 0 once sealed */
  guint *child_start;  /* sealed: children of n are children[child_start[n] ..
                        * child_start[n + 1]) */
  guint *children;
} ShapeTree;

struct _MgCallShape {
  gatomicrefcount ref;
  MgFrameNamer *namer;
  ShapeTree trees[2];
  GArray *leaf[2];         /* guint by stack: its innermost top-down node, its
                            * outermost bottom-up node (the root when empty) */
  GArray *leaf_function;   /* guint by stack: its innermost function, G_MAXUINT */
  GArray *waiting;         /* guint8 by stack: TRUE for a wait in MPI (MG_STACK_MPI) */
  GArray *function_start;  /* guint by stack + 1: into functions */
  GArray *functions;       /* each stack's distinct functions */
  GArray *stamp;           /* scratch by function: the last stack + 1 listing it */
  guint n_functions;       /* ids below this */
  /* Spots: a (function, line in its file) passed by some stack, for the
   * function's hottest line (mg-hot-line.h). */
  GHashTable *spot_ids;    /* (function << 32 | line) → spot + 1; NULL once sealed */
  GArray *spot_function;   /* guint by spot */
  GArray *spot_line;       /* guint by spot */
  GArray *spot_stamp;      /* guint by spot: the last stack + 1 listing it */
  GArray *spot_start;      /* guint by stack + 1: into spots */
  GArray *spots;           /* each stack's distinct spots */
  GArray *leaf_spot;       /* guint by stack: its innermost function's spot, G_MAXUINT */
  gboolean sealed;
};

G_END_DECLS
