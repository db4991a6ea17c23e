#include "osd/shapes.h"

#include <cairo.h>

#include <algorithm>
#include <cmath>

namespace dsnode::osd {

namespace {

constexpr double kPi = 3.14159265358979323846;

struct Bounds {
  double x0, y0, x1, y1;
};

Bounds around(std::initializer_list<Point> points, double margin) {
  Bounds bounds{points.begin()->x, points.begin()->y, points.begin()->x, points.begin()->y};
  for (const Point &point : points) {
    bounds.x0 = std::min(bounds.x0, point.x);
    bounds.y0 = std::min(bounds.y0, point.y);
    bounds.x1 = std::max(bounds.x1, point.x);
    bounds.y1 = std::max(bounds.y1, point.y);
  }
  return Bounds{bounds.x0 - margin, bounds.y0 - margin, bounds.x1 + margin, bounds.y1 + margin};
}

// Runs `path` (which builds a path in frame coordinates on `cr` and fills or strokes it) on
// a coverage map of `bounds` ∩ frame, then blends the coverage in `paint`.
template <typename Path>
void rasterise(Canvas &canvas, Bounds bounds, const Paint &paint, const Path &path) {
  if (!paint.visible()) return;
  const int32_t x0 = static_cast<int32_t>(std::clamp(std::floor(bounds.x0), 0.0, static_cast<double>(canvas.width())));
  const int32_t y0 = static_cast<int32_t>(std::clamp(std::floor(bounds.y0), 0.0, static_cast<double>(canvas.height())));
  const int32_t x1 = static_cast<int32_t>(std::clamp(std::ceil(bounds.x1), 0.0, static_cast<double>(canvas.width())));
  const int32_t y1 = static_cast<int32_t>(std::clamp(std::ceil(bounds.y1), 0.0, static_cast<double>(canvas.height())));
  if (x1 <= x0 || y1 <= y0) return;
  cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_A8, x1 - x0, y1 - y0);
  cairo_t *cr = cairo_create(surface);
  cairo_translate(cr, -x0, -y0);
  path(cr);
  cairo_destroy(cr);
  cairo_surface_flush(surface);
  if (cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS) {
    canvas.blend(x0, y0,
        Coverage{cairo_image_surface_get_data(surface), x1 - x0, y1 - y0, cairo_image_surface_get_stride(surface)}, paint);
  }
  cairo_surface_destroy(surface);
}

void stroke(cairo_t *cr, double width) {
  cairo_set_line_width(cr, width);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
  cairo_stroke(cr);
}

}  // namespace

void draw_line(Canvas &canvas, Point from, Point to, double width, const Paint &paint) {
  if (width <= 0) return;
  rasterise(canvas, around({from, to}, width), paint, [&](cairo_t *cr) {
    cairo_move_to(cr, from.x, from.y);
    cairo_line_to(cr, to.x, to.y);
    stroke(cr, width);
  });
}

void draw_arrow(Canvas &canvas, Point from, Point to, double width, ArrowHeads heads, const Paint &paint) {
  if (width <= 0) return;
  const double dx = to.x - from.x, dy = to.y - from.y;
  const double length = std::hypot(dx, dy);
  if (length == 0) return;
  const double ux = dx / length, uy = dy / length;  // along the arrow
  const int count = heads == ArrowHeads::kBoth ? 2 : 1;
  const double head_length = std::min(std::max(3 * width, 10.0), length / count);
  const double half_base = std::max(4 * width, 10.0) / 2;
  const bool at_start = heads != ArrowHeads::kEnd, at_end = heads != ArrowHeads::kStart;
  // The shaft stops where a head starts, so the tip stays sharp.
  const Point shaft_from{from.x + (at_start ? ux * head_length : 0), from.y + (at_start ? uy * head_length : 0)};
  const Point shaft_to{to.x - (at_end ? ux * head_length : 0), to.y - (at_end ? uy * head_length : 0)};
  rasterise(canvas, around({from, to}, std::max(width, half_base)), paint, [&](cairo_t *cr) {
    // One path (the shaft ends where a head's base starts): blended once, no seam between them.
    const double half_width = width / 2;
    auto quad = [&](Point a, Point b) {
      cairo_move_to(cr, a.x - uy * half_width, a.y + ux * half_width);
      cairo_line_to(cr, b.x - uy * half_width, b.y + ux * half_width);
      cairo_line_to(cr, b.x + uy * half_width, b.y - ux * half_width);
      cairo_line_to(cr, a.x + uy * half_width, a.y - ux * half_width);
      cairo_close_path(cr);
    };
    auto head = [&](Point tip, double direction) {  // direction: +1 the tip is ahead, -1 behind
      const Point base{tip.x - direction * ux * head_length, tip.y - direction * uy * head_length};
      cairo_move_to(cr, tip.x, tip.y);
      cairo_line_to(cr, base.x - uy * half_base, base.y + ux * half_base);
      cairo_line_to(cr, base.x + uy * half_base, base.y - ux * half_base);
      cairo_close_path(cr);
    };
    if ((shaft_to.x - shaft_from.x) * ux + (shaft_to.y - shaft_from.y) * uy > 0) quad(shaft_from, shaft_to);
    if (at_start) head(from, -1);
    if (at_end) head(to, +1);
    cairo_fill(cr);
  });
}

void draw_circle(Canvas &canvas, Point centre, double radius, double width, const Paint &outline, const Paint &fill) {
  const Bounds disk = around({centre}, radius + width);
  rasterise(canvas, disk, fill, [&](cairo_t *cr) {
    cairo_arc(cr, centre.x, centre.y, radius, 0, 2 * kPi);
    cairo_fill(cr);
  });
  if (width <= 0 || radius <= 0) return;
  rasterise(canvas, disk, outline, [&](cairo_t *cr) {
    cairo_arc(cr, centre.x, centre.y, radius, 0, 2 * kPi);
    stroke(cr, width);
  });
}

void draw_rotated_box(Canvas &canvas, Point centre, double box_width, double box_height, double degrees,
    double width, const Paint &border, const Paint &fill) {
  const double reach = std::hypot(box_width, box_height) / 2 + width;
  const Bounds bounds = around({centre}, reach);
  auto path = [&](cairo_t *cr) {
    cairo_translate(cr, centre.x, centre.y);
    cairo_rotate(cr, degrees * kPi / 180);
    cairo_rectangle(cr, -box_width / 2, -box_height / 2, box_width, box_height);
  };
  rasterise(canvas, bounds, fill, [&](cairo_t *cr) {
    path(cr);
    cairo_fill(cr);
  });
  if (width <= 0) return;
  rasterise(canvas, bounds, border, [&](cairo_t *cr) {
    path(cr);
    stroke(cr, width);  // a rotation keeps the line width in frame pixels
  });
}

}  // namespace dsnode::osd
