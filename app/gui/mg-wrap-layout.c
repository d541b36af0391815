/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-wrap-layout.h"

struct _MgWrapLayout {
  GtkLayoutManager parent_instance;

  int spacing;
  gboolean wrapped;
};

G_DEFINE_FINAL_TYPE (MgWrapLayout, mg_wrap_layout, GTK_TYPE_LAYOUT_MANAGER)

/* The first two visible children; either may be NULL. */
static void
get_children (GtkWidget *widget, GtkWidget **first, GtkWidget **second)
{
  *first = *second = NULL;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (!gtk_widget_should_layout (child))
        continue;
      if (*first == NULL)
        *first = child;
      else if (*second == NULL)
        *second = child;
    }
}

static int
min_width (GtkWidget *child)
{
  int minimum;

  gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  return minimum;
}

/* The widths of the two on one line @width wide, FALSE when they do not
 * fit on one. */
static gboolean
one_line_widths (MgWrapLayout *self, GtkWidget *first, GtkWidget *second, int width,
                 int *first_width, int *second_width)
{
  int min1, nat1, min2 = min_width (second);

  gtk_widget_measure (first, GTK_ORIENTATION_HORIZONTAL, -1, &min1, &nat1, NULL, NULL);
  if (width >= 0 && min1 + self->spacing + min2 > width)
    return FALSE;
  if (width < 0)
    width = nat1 + self->spacing + min2;
  *first_width = MAX (min1, MIN (nat1, width - self->spacing - min2));
  *second_width = width - self->spacing - *first_width;
  return TRUE;
}

static GtkSizeRequestMode
mg_wrap_layout_get_request_mode (GtkLayoutManager *manager, GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
measure_height (MgWrapLayout *self, GtkWidget *first, GtkWidget *second, int width,
                int *minimum, int *natural)
{
  int w1, w2, min1, nat1, min2, nat2;

  if (one_line_widths (self, first, second, width, &w1, &w2))
    {
      gtk_widget_measure (first, GTK_ORIENTATION_VERTICAL, w1, &min1, &nat1, NULL, NULL);
      gtk_widget_measure (second, GTK_ORIENTATION_VERTICAL, w2, &min2, &nat2, NULL, NULL);
      *minimum = MAX (min1, min2);
      *natural = MAX (nat1, nat2);
      return;
    }
  gtk_widget_measure (first, GTK_ORIENTATION_VERTICAL, width, &min1, &nat1, NULL, NULL);
  gtk_widget_measure (second, GTK_ORIENTATION_VERTICAL, width, &min2, &nat2, NULL, NULL);
  *minimum = min1 + self->spacing + min2;
  *natural = nat1 + self->spacing + nat2;
}

static void
mg_wrap_layout_measure (GtkLayoutManager *manager, GtkWidget *widget, GtkOrientation orientation,
                        int for_size, int *minimum, int *natural, int *minimum_baseline,
                        int *natural_baseline)
{
  MgWrapLayout *self = MG_WRAP_LAYOUT (manager);
  GtkWidget *first, *second;

  get_children (widget, &first, &second);
  *minimum = *natural = 0;
  if (first == NULL)
    return;
  if (second == NULL)
    {
      gtk_widget_measure (first, orientation, for_size, minimum, natural, NULL, NULL);
      return;
    }
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int min1, nat1, min2, nat2;

      gtk_widget_measure (first, orientation, -1, &min1, &nat1, NULL, NULL);
      gtk_widget_measure (second, orientation, -1, &min2, &nat2, NULL, NULL);
      /* Narrowest: one above the other. */
      *minimum = MAX (min1, min2);
      *natural = nat1 + self->spacing + nat2;
      return;
    }
  measure_height (self, first, second, for_size, minimum, natural);
}

static void
allocate_child (GtkWidget *widget, GtkWidget *child, int x, int y, int width, int height)
{
  /* Right to left, the first is at the right. */
  if (gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL)
    x = gtk_widget_get_width (widget) - x - width;
  gtk_widget_size_allocate (child, &(GtkAllocation) { x, y, width, height }, -1);
}

static void
mg_wrap_layout_allocate (GtkLayoutManager *manager, GtkWidget *widget, int width, int height,
                         int baseline)
{
  MgWrapLayout *self = MG_WRAP_LAYOUT (manager);
  GtkWidget *first, *second;
  int w1, w2, h1;

  get_children (widget, &first, &second);
  self->wrapped = FALSE;
  if (first == NULL)
    return;
  if (second == NULL)
    {
      gtk_widget_size_allocate (first, &(GtkAllocation) { 0, 0, width, height }, -1);
      return;
    }
  if (one_line_widths (self, first, second, width, &w1, &w2))
    {
      allocate_child (widget, first, 0, 0, w1, height);
      allocate_child (widget, second, w1 + self->spacing, 0, w2, height);
      return;
    }
  self->wrapped = TRUE;
  gtk_widget_measure (first, GTK_ORIENTATION_VERTICAL, width, NULL, &h1, NULL, NULL);
  h1 = MIN (h1, height);
  allocate_child (widget, first, 0, 0, width, h1);
  allocate_child (widget, second, 0, h1 + self->spacing, width,
                  MAX (0, height - h1 - self->spacing));
}

static void
mg_wrap_layout_class_init (MgWrapLayoutClass *klass)
{
  GtkLayoutManagerClass *manager_class = GTK_LAYOUT_MANAGER_CLASS (klass);

  manager_class->get_request_mode = mg_wrap_layout_get_request_mode;
  manager_class->measure = mg_wrap_layout_measure;
  manager_class->allocate = mg_wrap_layout_allocate;
}

static void
mg_wrap_layout_init (MgWrapLayout *self)
{
}

GtkLayoutManager *
mg_wrap_layout_new (int spacing)
{
  MgWrapLayout *self = g_object_new (MG_TYPE_WRAP_LAYOUT, NULL);

  self->spacing = spacing;
  return GTK_LAYOUT_MANAGER (self);
}

gboolean
mg_wrap_layout_get_wrapped (MgWrapLayout *self)
{
  g_return_val_if_fail (MG_IS_WRAP_LAYOUT (self), FALSE);
  return self->wrapped;
}
