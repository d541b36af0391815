/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The graphs beside a side panel that shrinks with the window, or under
 * it in a narrow window. */
#include "mg-config.h"

#include "mg-side-layout.h"

struct _MgSideLayout
{
  GtkLayoutManager parent_instance;
};

G_DEFINE_FINAL_TYPE (MgSideLayout, mg_side_layout, GTK_TYPE_LAYOUT_MANAGER)

int
mg_side_layout_side_width (int width, int side_minimum, int side_natural)
{
  int share = CLAMP ((int) (width * MG_SIDE_LAYOUT_SHARE), MG_SIDE_LAYOUT_MIN_WIDTH,
                     MG_SIDE_LAYOUT_MAX_WIDTH);

  /* A hidden or sliding revealer asks for less than its panel: that. */
  return MAX (side_minimum, MIN (side_natural, share));
}

gboolean
mg_side_layout_overlays (int width)
{
  return width < MG_SIDE_LAYOUT_OVERLAY_BELOW;
}

static void
mg_side_layout_measure (GtkLayoutManager *manager, GtkWidget *widget,
                        GtkOrientation orientation, int for_size, int *minimum, int *natural,
                        int *minimum_baseline, int *natural_baseline)
{
  GtkWidget *side = gtk_widget_get_last_child (widget);
  int side_min = 0;

  *minimum = *natural = 0;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_min = 0, child_nat = 0;

      if (!gtk_widget_should_layout (child))
        continue;
      gtk_widget_measure (child, orientation, orientation == GTK_ORIENTATION_VERTICAL ? -1 : for_size,
                          &child_min, &child_nat, NULL, NULL);
      if (orientation == GTK_ORIENTATION_HORIZONTAL)
        {
          if (child == side)
            side_min = child_min;
          else
            *minimum += child_min;
          *natural += child_nat;
        }
      else
        {
          *minimum = MAX (*minimum, child_min);
          *natural = MAX (*natural, child_nat);
        }
    }
  /* Too narrow for both, the panel lies over the graphs: the row needs
   * only the wider of the two (the sum pushed a 1024 px window with large
   * text to 1267 px). */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = MAX (*minimum, side_min);
  *minimum_baseline = *natural_baseline = -1;
}

static void
mg_side_layout_allocate (GtkLayoutManager *manager, GtkWidget *widget, int width, int height,
                         int baseline)
{
  GtkWidget *side = gtk_widget_get_last_child (widget);
  int side_width = 0, x = 0, rest_min = 0, rest_width, side_min = 0;
  gboolean overlaid, rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL && child != side;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_should_layout (child))
      {
        int child_min = 0;

        gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &child_min, NULL, NULL, NULL);
        rest_min += child_min;
      }
  if (side != NULL && gtk_widget_should_layout (side))
    {
      int side_nat = 0;

      gtk_widget_measure (side, GTK_ORIENTATION_HORIZONTAL, -1, &side_min, &side_nat, NULL, NULL);
      side_width = mg_side_layout_side_width (width, side_min, side_nat);
      /* The graphs' own minimum comes first. */
      side_width = MAX (side_min, MIN (side_width, width - rest_min));
    }
  overlaid = mg_side_layout_overlays (width) || rest_min + side_min > width;
  /* Lying over the graphs, it takes none of their width: it may be as wide
   * as it wants, up to its maximum and half the row, so its facts do not
   * wrap at every word. */
  if (overlaid && side != NULL && gtk_widget_should_layout (side))
    {
      int side_nat = 0;

      gtk_widget_measure (side, GTK_ORIENTATION_HORIZONTAL, -1, &side_min, &side_nat, NULL, NULL);
      side_width = MAX (side_min, MIN (side_nat, MIN (MG_SIDE_LAYOUT_MAX_WIDTH, width / 2)));
    }
  if (side != NULL && gtk_widget_has_css_class (side, "side-overlay") != overlaid)
    {
      if (overlaid)
        gtk_widget_add_css_class (side, "side-overlay");
      else
        gtk_widget_remove_css_class (side, "side-overlay");
    }
  /* Overlaid, the graphs keep the whole width under the panel. */
  rest_width = overlaid ? width : width - side_width;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_width;

      if (!gtk_widget_should_layout (child))
        continue;
      if (child == side)
        {
          /* Drawn last, so on top, at the end's edge. */
          child_width = side_width;
          x = width - side_width;
        }
      else
        {
          int child_min = 0;

          gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &child_min, NULL, NULL, NULL);
          /* Every child before the side panel but the last keeps its minimum. */
          child_width = gtk_widget_get_next_sibling (child) == side ? rest_width - x : child_min;
        }
      /* Right to left, mirrored: the panel at the left edge. */
      gtk_widget_size_allocate (child,
                                &(GtkAllocation) { rtl ? width - x - MAX (child_width, 0) : x, 0,
                                                   MAX (child_width, 0), height },
                                -1);
      x += child_width;
    }
}

static GtkSizeRequestMode
mg_side_layout_get_request_mode (GtkLayoutManager *manager, GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static void
mg_side_layout_class_init (MgSideLayoutClass *klass)
{
  GtkLayoutManagerClass *layout_class = GTK_LAYOUT_MANAGER_CLASS (klass);

  layout_class->measure = mg_side_layout_measure;
  layout_class->allocate = mg_side_layout_allocate;
  layout_class->get_request_mode = mg_side_layout_get_request_mode;
}

static void
mg_side_layout_init (MgSideLayout *self)
{
}

GtkLayoutManager *
mg_side_layout_new (void)
{
  return g_object_new (MG_TYPE_SIDE_LAYOUT, NULL);
}
