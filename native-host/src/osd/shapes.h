// Anti-aliased shapes (lines, arrows, circles, rotated boxes): Cairo rasterises each into a
// coverage map over its bounding box, clipped to the frame, and the canvas blends it. Axis-
// aligned boxes do not come here: overlay.cpp fills them pixel-exact.
#ifndef DSNODE_OSD_SHAPES_H
#define DSNODE_OSD_SHAPES_H

#include "osd/canvas.h"

namespace dsnode::osd {

struct Point {
  double x = 0, y = 0;
};

// A straight line of `width` px (butt ends) from `from` to `to`: along the segment, centred
// on it, as Cairo strokes it.
void draw_line(Canvas &canvas, Point from, Point to, double width, const Paint &paint);

enum class ArrowHeads { kStart, kEnd, kBoth };

// A line with a filled triangular head at one or both ends. A head is max(3 × width, 10) px
// long and max(4 × width, 10) px wide at its base, with its tip on the end point; heads are
// shortened to fit a short arrow.
void draw_arrow(Canvas &canvas, Point from, Point to, double width, ArrowHeads heads, const Paint &paint);

// A circle of `radius` px: the disk filled with `fill` (when visible), then an outline of
// `width` px centred on the radius in `outline` (when width > 0 and visible).
void draw_circle(Canvas &canvas, Point centre, double radius, double width, const Paint &outline, const Paint &fill);

// A box of width × height px around `centre`, turned by `degrees` (clockwise on the frame):
// filled with `fill` (when visible), then a border of `width` px centred on its edges.
void draw_rotated_box(Canvas &canvas, Point centre, double box_width, double box_height, double degrees,
    double width, const Paint &border, const Paint &fill);

}  // namespace dsnode::osd

#endif
