#include "osd/overlay.h"

#include <glib.h>

#include <algorithm>
#include <cmath>

#include "meta/validate.h"
#include "osd/shapes.h"
#include "osd/text.h"

namespace dsnode::osd {

namespace {

using meta::ColorParams;
using meta::Status;

using meta::names::expected;
using meta::names::item;
using meta::names::member;

#define DSNODE_OSD_CHECK(expression) \
  do { Status status_ = (expression); if (!status_.ok()) return status_; } while (0)

template <typename Name>
Status unit(double value, const Name &field) {
  if (std::isfinite(value) && value >= 0 && value <= 1) return Status::Ok();
  return expected("a number from 0 to 1", field, meta::describe_number(value));
}

template <typename Name>
Status color(const ColorParams &value, const Name &field) {
  DSNODE_OSD_CHECK(unit(value.red, member(field, "red")));
  DSNODE_OSD_CHECK(unit(value.green, member(field, "green")));
  DSNODE_OSD_CHECK(unit(value.blue, member(field, "blue")));
  return unit(value.alpha, member(field, "alpha"));
}

// noun: "width" or "height", in px.
template <typename Name>
Status at_most(double value, double maximum, const char *noun, const Name &field) {
  if (std::isfinite(value) && value >= 0 && value <= maximum) return Status::Ok();
  return expected("a " + std::string(noun) + " from 0 to " + meta::describe_number(maximum) + " px", field, meta::describe_number(value));
}

template <typename Name>
Status finite(double value, const Name &field) {
  if (std::isfinite(value)) return Status::Ok();
  return expected("a finite number", field, meta::describe_number(value));
}

template <typename Name>
Status utf8(const std::string &value, const Name &field) {
  const char *end = nullptr;
  if (g_utf8_validate(value.data(), static_cast<gssize>(value.size()), &end)) return Status::Ok();
  return expected("UTF-8 text", field, "an invalid byte at offset " + std::to_string(end - value.data()));
}

// A box (object rect_params or a display rect): where it is, and what of it is drawn.
template <typename Name>
Status check_box(const meta::RectParams &rect, const Name &field) {
  DSNODE_OSD_CHECK(finite(rect.left, member(field, "left")));
  DSNODE_OSD_CHECK(finite(rect.top, member(field, "top")));
  DSNODE_OSD_CHECK(at_most(rect.width, 1e9, "width", member(field, "width")));
  DSNODE_OSD_CHECK(at_most(rect.height, 1e9, "height", member(field, "height")));
  DSNODE_OSD_CHECK(finite(rect.rotation_angle, member(field, "rotationAngle")));
  DSNODE_OSD_CHECK(at_most(rect.border_width, kMaxLineWidth, "width", member(field, "borderWidth")));
  if (rect.border_width > 0) DSNODE_OSD_CHECK(color(rect.border_color, member(field, "borderColor")));
  if (rect.has_bg_color) DSNODE_OSD_CHECK(color(rect.bg_color, member(field, "bgColor")));
  return Status::Ok();
}

template <typename Name>
Status check_text(const meta::TextParams &text, const Name &field) {
  if (text.display_text.empty()) return Status::Ok();
  DSNODE_OSD_CHECK(utf8(text.display_text, member(field, "displayText")));
  auto font = member(field, "font");
  DSNODE_OSD_CHECK(utf8(text.font_params.font_name, member(font, "name")));
  if (text.font_params.font_size < 1 || text.font_params.font_size > kMaxFontSize) {
    return expected("a font size from 1 to " + std::to_string(kMaxFontSize) + " (points)", member(font, "size"),
        std::to_string(text.font_params.font_size));
  }
  DSNODE_OSD_CHECK(color(text.font_params.font_color, member(font, "color")));
  if (text.set_bg_clr) DSNODE_OSD_CHECK(color(text.text_bg_clr, member(field, "bgColor")));
  return Status::Ok();
}

template <typename Name>
Status coordinate(uint32_t value, const Name &field) {
  if (value <= kMaxCoordinate) return Status::Ok();
  return expected("a coordinate from 0 to " + std::to_string(kMaxCoordinate) + " px", field, std::to_string(value));
}

template <typename Name>
Status check_line(const meta::LineParams &line, const Name &field) {
  DSNODE_OSD_CHECK(coordinate(line.x1, member(field, "x1")));
  DSNODE_OSD_CHECK(coordinate(line.y1, member(field, "y1")));
  DSNODE_OSD_CHECK(coordinate(line.x2, member(field, "x2")));
  DSNODE_OSD_CHECK(coordinate(line.y2, member(field, "y2")));
  DSNODE_OSD_CHECK(at_most(line.line_width, kMaxLineWidth, "width", member(field, "lineWidth")));
  if (line.line_width > 0) DSNODE_OSD_CHECK(color(line.line_color, member(field, "lineColor")));
  return Status::Ok();
}

template <typename Name>
Status check_arrow(const meta::ArrowParams &arrow, const Name &field) {
  DSNODE_OSD_CHECK(coordinate(arrow.x1, member(field, "x1")));
  DSNODE_OSD_CHECK(coordinate(arrow.y1, member(field, "y1")));
  DSNODE_OSD_CHECK(coordinate(arrow.x2, member(field, "x2")));
  DSNODE_OSD_CHECK(coordinate(arrow.y2, member(field, "y2")));
  DSNODE_OSD_CHECK(at_most(arrow.arrow_width, kMaxLineWidth, "width", member(field, "arrowWidth")));
  const auto head = static_cast<int32_t>(arrow.arrow_head);
  if (head < 0 || head > 2) {
    return expected("0 (start), 1 (end) or 2 (both)", member(field, "arrowHead"), std::to_string(head));
  }
  if (arrow.arrow_width > 0) DSNODE_OSD_CHECK(color(arrow.arrow_color, member(field, "arrowColor")));
  return Status::Ok();
}

template <typename Name>
Status check_circle(const meta::CircleParams &circle, const Name &field) {
  DSNODE_OSD_CHECK(coordinate(circle.xc, member(field, "xc")));
  DSNODE_OSD_CHECK(coordinate(circle.yc, member(field, "yc")));
  DSNODE_OSD_CHECK(coordinate(circle.radius, member(field, "radius")));
  DSNODE_OSD_CHECK(at_most(circle.circle_width, kMaxLineWidth, "width", member(field, "circleWidth")));
  if (circle.circle_width > 0) DSNODE_OSD_CHECK(color(circle.circle_color, member(field, "circleColor")));
  if (circle.has_bg_color) DSNODE_OSD_CHECK(color(circle.bg_color, member(field, "bgColor")));
  return Status::Ok();
}

template <typename Name>
Status check_mask(const meta::ObjectFields &object, const Name &field) {
  const meta::MaskParams &mask = object.mask_params;
  if (mask.data.empty() && (mask.width == 0 || mask.height == 0)) return Status::Ok();
  auto mask_field = member(field, "maskParams");
  const uint64_t cells = static_cast<uint64_t>(mask.width) * mask.height;
  if (mask.data.size() != cells) {
    return expected(std::to_string(cells) + " values (width " + std::to_string(mask.width) + " x height " +
        std::to_string(mask.height) + ")", member(mask_field, "data"), std::to_string(mask.data.size()) + " values");
  }
  DSNODE_OSD_CHECK(finite(mask.threshold, member(mask_field, "threshold")));
  auto rect = member(field, "rectParams");
  DSNODE_OSD_CHECK(check_box(object.rect_params, rect));
  return color(object.rect_params.border_color, member(rect, "borderColor"));
}

int64_t rounded(double value) {
  return static_cast<int64_t>(std::llround(std::clamp(value, -1e15, 1e15)));
}

Paint paint_of(const ColorParams &color, double opacity = 1.0) {
  return make_paint(color.red, color.green, color.blue, color.alpha, opacity);
}

// An axis-aligned box, pixel-exact (see overlay.h), or a turned one through Cairo.
void draw_box(Canvas &canvas, const meta::RectParams &rect) {
  const Paint fill = rect.has_bg_color ? paint_of(rect.bg_color) : Paint{0, 0, 0, 0};
  const Paint border = rect.border_width > 0 ? paint_of(rect.border_color) : Paint{0, 0, 0, 0};
  if (rect.rotation_angle != 0) {
    draw_rotated_box(canvas, Point{rect.left + rect.width / 2.0, rect.top + rect.height / 2.0}, rect.width, rect.height,
        rect.rotation_angle, rect.border_width, border, fill);
    return;
  }
  const int64_t x0 = rounded(rect.left), y0 = rounded(rect.top);
  const int64_t x1 = rounded(static_cast<double>(rect.left) + rect.width), y1 = rounded(static_cast<double>(rect.top) + rect.height);
  if (x1 <= x0 || y1 <= y0) return;
  canvas.fill(x0, y0, x1, y1, fill);
  if (!border.visible()) return;
  // Bands around the edge pixels x0, x1 − 1, y0, y1 − 1; four disjoint rectangles, so a
  // translucent border blends once everywhere, corners included.
  const int64_t w = rect.border_width, before = w / 2;
  const int64_t outer_left = x0 - before, outer_right = x1 - 1 - before + w;
  const int64_t outer_top = y0 - before, outer_bottom = y1 - 1 - before + w;
  const int64_t inner_top = std::min(outer_top + w, outer_bottom), inner_bottom = std::max(outer_bottom - w, inner_top);
  canvas.fill(outer_left, outer_top, outer_right, inner_top, border);
  canvas.fill(outer_left, inner_bottom, outer_right, outer_bottom, border);
  const int64_t inner_left = std::min(outer_left + w, outer_right), inner_right = std::max(outer_right - w, inner_left);
  canvas.fill(outer_left, inner_top, inner_left, inner_bottom, border);
  canvas.fill(inner_right, inner_top, outer_right, inner_bottom, border);
}

// Nearest mask cell for each frame pixel of the box; cells above the threshold take the box's
// border colour at half its alpha, so what is under the mask stays visible.
void draw_mask(Canvas &canvas, const meta::ObjectFields &object) {
  const meta::MaskParams &mask = object.mask_params;
  const meta::RectParams &rect = object.rect_params;
  if (mask.width == 0 || mask.height == 0 || rect.width <= 0 || rect.height <= 0) return;
  const Paint paint = paint_of(rect.border_color, 0.5);
  if (!paint.visible()) return;
  const int64_t x0 = std::max<int64_t>(rounded(rect.left), 0), y0 = std::max<int64_t>(rounded(rect.top), 0);
  const int64_t x1 = std::min<int64_t>(rounded(static_cast<double>(rect.left) + rect.width), canvas.width());
  const int64_t y1 = std::min<int64_t>(rounded(static_cast<double>(rect.top) + rect.height), canvas.height());
  const double scale_x = mask.width / static_cast<double>(rect.width), scale_y = mask.height / static_cast<double>(rect.height);
  for (int64_t y = y0; y < y1; ++y) {
    const int64_t my = std::min<int64_t>(static_cast<int64_t>((y + 0.5 - rect.top) * scale_y), mask.height - 1);
    if (my < 0) continue;
    const float *cells = mask.data.data() + my * mask.width;
    for (int64_t x = x0; x < x1; ++x) {
      const int64_t mx = std::min<int64_t>(static_cast<int64_t>((x + 0.5 - rect.left) * scale_x), mask.width - 1);
      if (mx >= 0 && cells[mx] > mask.threshold) canvas.blend_pixel(static_cast<int32_t>(x), static_cast<int32_t>(y), paint);
    }
  }
}

bool draw_text(Canvas &canvas, const meta::TextParams &text) {
  if (text.display_text.empty()) return false;
  const int64_t x = text.x_offset, y = text.y_offset;
  if (x >= canvas.width() || y >= canvas.height()) return true;  // all of it past the frame's edge
  // Only what lands on the frame is rendered: texts of any length or size are clipped.
  std::shared_ptr<const RenderedText> rendered = render_text(text.font_params.font_name, text.font_params.font_size,
      text.display_text, static_cast<int32_t>(canvas.width() - x), static_cast<int32_t>(canvas.height() - y));
  if (text.set_bg_clr) canvas.fill(x, y, x + rendered->width, y + rendered->height, paint_of(text.text_bg_clr));
  canvas.blend(x, y, rendered->coverage(), paint_of(text.font_params.font_color));
  return true;
}

ArrowHeads heads_of(meta::ArrowHead head) {
  switch (head) {
    case meta::ArrowHead::kStart: return ArrowHeads::kStart;
    case meta::ArrowHead::kBoth: return ArrowHeads::kBoth;
    case meta::ArrowHead::kEnd: break;
  }
  return ArrowHeads::kEnd;
}

Point point(uint32_t x, uint32_t y) { return Point{static_cast<double>(x), static_cast<double>(y)}; }

}  // namespace

FrameOverlay read_frame_overlay(const meta::Batch &batch, meta::FrameHandle frame) {
  FrameOverlay overlay;
  std::vector<meta::ObjectHandle> objects;
  batch.objects(frame, &objects);
  overlay.objects.resize(objects.size());
  for (size_t i = 0; i < objects.size(); ++i) batch.read_object(objects[i], &overlay.objects[i]);
  std::vector<meta::DisplayHandle> displays;
  batch.displays(frame, &displays);
  overlay.displays.resize(displays.size());
  for (size_t i = 0; i < displays.size(); ++i) batch.read_display(displays[i], &overlay.displays[i]);
  return overlay;
}

Status check_overlay(const FrameOverlay &overlay, const OverlayOptions &options, const std::string &name) {
  auto frame = [&name] { return name; };
  for (size_t i = 0; i < overlay.objects.size(); ++i) {
    const meta::ObjectFields &object = overlay.objects[i];
    auto field = item(frame, "objectItems", i);
    if (options.boxes) DSNODE_OSD_CHECK(check_box(object.rect_params, member(field, "rectParams")));
    if (options.text) DSNODE_OSD_CHECK(check_text(object.text_params, member(field, "textParams")));
    if (options.masks) DSNODE_OSD_CHECK(check_mask(object, field));
  }
  if (!options.display_meta) return Status::Ok();
  for (size_t d = 0; d < overlay.displays.size(); ++d) {
    const meta::DisplayFields &display = overlay.displays[d];
    auto field = item(frame, "displayMetaItems", d);
    const uint32_t cap = meta::kMaxElementsInDisplayMeta;
    for (uint32_t i = 0; i < std::min(display.num_rects, cap); ++i) DSNODE_OSD_CHECK(check_box(display.rect_params[i], item(field, "rects", i)));
    for (uint32_t i = 0; i < std::min(display.num_labels, cap); ++i) DSNODE_OSD_CHECK(check_text(display.text_params[i], item(field, "texts", i)));
    for (uint32_t i = 0; i < std::min(display.num_lines, cap); ++i) DSNODE_OSD_CHECK(check_line(display.line_params[i], item(field, "lines", i)));
    for (uint32_t i = 0; i < std::min(display.num_arrows, cap); ++i) DSNODE_OSD_CHECK(check_arrow(display.arrow_params[i], item(field, "arrows", i)));
    for (uint32_t i = 0; i < std::min(display.num_circles, cap); ++i) DSNODE_OSD_CHECK(check_circle(display.circle_params[i], item(field, "circles", i)));
  }
  return Status::Ok();
}

void draw_overlay(Canvas &canvas, const FrameOverlay &overlay, const OverlayOptions &options, OverlayStats *stats) {
  OverlayStats counted;
  counted.objects = static_cast<uint32_t>(overlay.objects.size());
  const uint32_t cap = meta::kMaxElementsInDisplayMeta;
  if (options.masks) {
    for (const meta::ObjectFields &object : overlay.objects) {
      if (object.mask_params.data.empty()) continue;
      draw_mask(canvas, object);
      ++counted.masks;
    }
  }
  if (options.boxes) {
    for (const meta::ObjectFields &object : overlay.objects) {
      if (object.rect_params.border_width == 0 && !object.rect_params.has_bg_color) continue;
      draw_box(canvas, object.rect_params);
      ++counted.boxes;
    }
  }
  if (options.display_meta) {
    for (const meta::DisplayFields &display : overlay.displays) {
      for (uint32_t i = 0; i < std::min(display.num_rects, cap); ++i, ++counted.rects) draw_box(canvas, display.rect_params[i]);
      for (uint32_t i = 0; i < std::min(display.num_lines, cap); ++i, ++counted.lines) {
        const meta::LineParams &line = display.line_params[i];
        draw_line(canvas, point(line.x1, line.y1), point(line.x2, line.y2), line.line_width, paint_of(line.line_color));
      }
      for (uint32_t i = 0; i < std::min(display.num_arrows, cap); ++i, ++counted.arrows) {
        const meta::ArrowParams &arrow = display.arrow_params[i];
        draw_arrow(canvas, point(arrow.x1, arrow.y1), point(arrow.x2, arrow.y2), arrow.arrow_width, heads_of(arrow.arrow_head),
            paint_of(arrow.arrow_color));
      }
      for (uint32_t i = 0; i < std::min(display.num_circles, cap); ++i, ++counted.circles) {
        const meta::CircleParams &circle = display.circle_params[i];
        const Paint outline = circle.circle_width > 0 ? paint_of(circle.circle_color) : Paint{0, 0, 0, 0};
        const Paint fill = circle.has_bg_color ? paint_of(circle.bg_color) : Paint{0, 0, 0, 0};
        draw_circle(canvas, point(circle.xc, circle.yc), circle.radius, circle.circle_width, outline, fill);
      }
    }
  }
  if (options.text) {
    for (const meta::ObjectFields &object : overlay.objects) counted.labels += draw_text(canvas, object.text_params) ? 1 : 0;
  }
  if (options.display_meta) {
    for (const meta::DisplayFields &display : overlay.displays) {
      for (uint32_t i = 0; i < std::min(display.num_labels, cap); ++i) counted.texts += draw_text(canvas, display.text_params[i]) ? 1 : 0;
    }
  }
  if (stats != nullptr) *stats = counted;
}

Status draw_frame_overlay(const meta::Batch &batch, meta::FrameHandle frame, const Image &image,
    const OverlayOptions &options, const std::string &name, OverlayStats *stats) {
  const FrameOverlay overlay = read_frame_overlay(batch, frame);
  Status status = check_overlay(overlay, options, name);
  if (!status.ok()) return status;
  Canvas canvas(image);
  draw_overlay(canvas, overlay, options, stats);
  return Status::Ok();
}

}  // namespace dsnode::osd
