// The CPU overlay (src/osd/) on its own: blending on each packed format, box geometry, shapes,
// text, display metas past 16, 10 000 objects through the portable backend, and the error texts
// for values no TypeScript writer can produce (colours out of 0..1, NaN, a foreign arrow head)
// but a C element on DeepStream can. Prints "N passed, M failed".
#include <gst/gst.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "check.h"
#include "meta/portable_backend.h"
#include "meta/portable_gst_meta.h"
#include "osd/canvas.h"
#include "osd/overlay.h"
#include "osd/shapes.h"
#include "osd/text.h"

using namespace dsnode;
using dsnode_test::check;
using dsnode_test::failed;
using dsnode_test::passed;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A black frame of one format, with a pixel reader that knows its channel order.
struct Frame {
  osd::PixelFormat format;
  int32_t width, height, channels;
  std::vector<uint8_t> bytes;

  Frame(osd::PixelFormat format, int32_t width, int32_t height) : format(format), width(width), height(height) {
    channels = format == osd::PixelFormat::kRGB || format == osd::PixelFormat::kBGR ? 3 : 4;
    bytes.assign(static_cast<size_t>(width) * height * channels, 0);
  }
  osd::Image image() { return osd::Image{bytes.data(), width, height, static_cast<int64_t>(width) * channels, format}; }
  // {red, green, blue}
  std::vector<int> at(int x, int y) const {
    const uint8_t *pixel = bytes.data() + (static_cast<size_t>(y) * width + x) * channels;
    const bool bgr = format == osd::PixelFormat::kBGR || format == osd::PixelFormat::kBGRx;
    return bgr ? std::vector<int>{pixel[2], pixel[1], pixel[0]} : std::vector<int>{pixel[0], pixel[1], pixel[2]};
  }
  int fourth(int x, int y) const { return bytes[(static_cast<size_t>(y) * width + x) * channels + 3]; }
};

std::string show(const std::vector<int> &rgb) {
  return "(" + std::to_string(rgb[0]) + ", " + std::to_string(rgb[1]) + ", " + std::to_string(rgb[2]) + ")";
}

void check_pixel(const Frame &frame, int x, int y, std::vector<int> expected, const std::string &name) {
  const std::vector<int> got = frame.at(x, y);
  check(got == expected, name, "pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") is " + show(got) + ", expected " + show(expected));
}

void check_near(const Frame &frame, int x, int y, std::vector<int> expected, const std::string &name) {
  const std::vector<int> got = frame.at(x, y);
  bool near = true;
  for (int c = 0; c < 3; ++c) near = near && std::abs(got[c] - expected[c]) <= 16;
  check(near, name, "pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") is " + show(got) + ", expected about " + show(expected));
}

const char *format_name(osd::PixelFormat format) {
  switch (format) {
    case osd::PixelFormat::kRGB: return "RGB";
    case osd::PixelFormat::kRGBA: return "RGBA";
    case osd::PixelFormat::kBGR: return "BGR";
    case osd::PixelFormat::kBGRx: return "BGRx";
  }
  return "?";
}

meta::ColorParams rgba(double r, double g, double b, double a) { return meta::ColorParams{r, g, b, a}; }

meta::RectParams box(float left, float top, float width, float height, uint32_t border_width = 0,
    meta::ColorParams border_color = {}) {
  meta::RectParams rect;
  rect.left = left;
  rect.top = top;
  rect.width = width;
  rect.height = height;
  rect.border_width = border_width;
  rect.border_color = border_color;
  return rect;
}

void test_blending() {
  for (osd::PixelFormat format : {osd::PixelFormat::kRGB, osd::PixelFormat::kRGBA, osd::PixelFormat::kBGR, osd::PixelFormat::kBGRx}) {
    const std::string name = format_name(format);
    Frame frame(format, 8, 4);
    if (frame.channels == 4) for (size_t i = 3; i < frame.bytes.size(); i += 4) frame.bytes[i] = 77;
    osd::Canvas canvas(frame.image());
    canvas.fill(0, 0, 2, 1, osd::make_paint(1, 0.5, 0.25, 1));
    check_pixel(frame, 1, 0, {255, 128, 64}, name + ": an opaque fill gives the colour exactly, in the format's channel order");
    canvas.fill(2, 0, 3, 1, osd::make_paint(1, 1, 1, 0.5));
    check_pixel(frame, 2, 0, {128, 128, 128}, name + ": half alpha over black is half the colour");
    canvas.fill(-5, 2, 100, 100, osd::make_paint(0, 0, 1, 1));
    check_pixel(frame, 0, 3, {0, 0, 255}, name + ": a fill past the frame's edges is clipped, not refused");
    if (frame.channels == 4) check(frame.fourth(1, 0) == 77, name + ": the alpha/x byte is left as it was");
  }
}

void test_box_geometry() {
  Frame frame(osd::PixelFormat::kRGB, 40, 30);
  osd::FrameOverlay overlay;
  meta::ObjectFields object;
  object.rect_params = box(10, 5, 20, 15, 3, rgba(1, 0, 0, 0.5));
  overlay.objects.push_back(object);
  check(osd::check_overlay(overlay, {}, "frameItems[0]").ok(), "a valid box passes the checks");
  osd::Canvas canvas(frame.image());
  osd::OverlayStats stats;
  osd::draw_overlay(canvas, overlay, {}, &stats);
  check(stats.boxes == 1 && stats.objects == 1, "stats count the box");
  // Edge columns 10 and 29, rows 5 and 19; width 3 covers [edge - 1, edge + 2).
  const std::vector<int> half_red{128, 0, 0};
  for (int x = 9; x <= 30; ++x) check_pixel(frame, x, 4, half_red, "top band row 4 at x " + std::to_string(x));
  check_pixel(frame, 9, 4, half_red, "a translucent border blends once at the corners (same as along the edge)");
  check_pixel(frame, 9, 12, half_red, "left band, outer column");
  check_pixel(frame, 11, 12, half_red, "left band, inner column");
  check_pixel(frame, 12, 12, {0, 0, 0}, "inside the border, untouched");
  check_pixel(frame, 8, 12, {0, 0, 0}, "outside the border, untouched");
  check_pixel(frame, 31, 12, {0, 0, 0}, "past the right band, untouched");
  check_pixel(frame, 20, 21, {0, 0, 0}, "below the bottom band, untouched");
  check_pixel(frame, 20, 20, half_red, "bottom band, outer row");
}

void test_shapes() {
  Frame frame(osd::PixelFormat::kBGRx, 64, 48);
  osd::Canvas canvas(frame.image());
  osd::draw_line(canvas, {4, 10}, {60, 10}, 2, osd::make_paint(0, 1, 0, 1));
  check_pixel(frame, 30, 9, {0, 255, 0}, "a 2 px line covers the row above its centre");
  check_pixel(frame, 30, 10, {0, 255, 0}, "and the row below");
  check_pixel(frame, 30, 12, {0, 0, 0}, "and nothing further");
  check_pixel(frame, 2, 10, {0, 0, 0}, "butt ends: nothing before the start");
  osd::draw_circle(canvas, {32, 30}, 10, 2, osd::make_paint(1, 1, 1, 1), osd::make_paint(0, 0, 1, 1));
  check_pixel(frame, 32, 30, {0, 0, 255}, "a filled circle's centre has its background colour");
  check_near(frame, 32, 20, {255, 255, 255}, "its outline crosses the top at radius 10 (anti-aliased: nearly white)");
  check_pixel(frame, 32, 17, {0, 0, 0}, "nothing beyond the outline");
  Frame turned(osd::PixelFormat::kRGB, 40, 40);
  osd::Canvas turned_canvas(turned.image());
  osd::draw_rotated_box(turned_canvas, {20, 20}, 30, 6, 90, 0, osd::Paint{0, 0, 0, 0}, osd::make_paint(1, 0, 0, 1));
  check_pixel(turned, 20, 8, {255, 0, 0}, "a 30x6 box turned 90 degrees stands upright");
  check_pixel(turned, 8, 20, {0, 0, 0}, "and no longer lies across");
  Frame arrow(osd::PixelFormat::kRGB, 64, 32);
  osd::Canvas arrow_canvas(arrow.image());
  osd::draw_arrow(arrow_canvas, {4, 16}, {60, 16}, 2, osd::ArrowHeads::kBoth, osd::make_paint(1, 1, 0, 1));
  check_pixel(arrow, 30, 15, {255, 255, 0}, "an arrow's shaft");
  check_pixel(arrow, 52, 13, {255, 255, 0}, "its head at the end is wider than the shaft");
  check_pixel(arrow, 11, 13, {255, 255, 0}, "and so is the head at the start (heads: both)");
  check_pixel(arrow, 62, 16, {0, 0, 0}, "nothing past the tip");
  check_pixel(arrow, 30, 13, {0, 0, 0}, "the shaft alone is 2 px wide");
}

void test_text() {
  const osd::TextCacheStats before = osd::text_cache_stats();
  auto first = osd::render_text("Sans", 20, "Hg label");
  auto again = osd::render_text("Sans", 20, "Hg label");
  int covered = 0;
  for (uint8_t value : first->pixels) covered += value > 128 ? 1 : 0;
  check(first->width > 40 && first->height >= 20 && covered > 50, "Pango renders a 20 pt label",
      std::to_string(first->width) + "x" + std::to_string(first->height) + ", " + std::to_string(covered) + " covered pixels");
  const osd::TextCacheStats after = osd::text_cache_stats();
  check(again == first && after.renders == before.renders + 1 && after.hits == before.hits + 1, "the second rendering comes from the cache");
  auto bigger = osd::render_text("Sans", 40, "Hg label");
  check(bigger->height > first->height * 3 / 2, "the size is in points: 40 is about twice as tall as 20");
}

// One white text at (x, y) on a black frame, drawn as dsosd draws it.
osd::OverlayStats draw_one_text(Frame &frame, const std::string &text, uint32_t font_size, uint32_t x = 0, uint32_t y = 0) {
  osd::FrameOverlay overlay;
  meta::DisplayFields display;
  display.num_labels = 1;
  display.text_params[0].display_text = text;
  display.text_params[0].x_offset = x;
  display.text_params[0].y_offset = y;
  display.text_params[0].font_params.font_name = "Sans";
  display.text_params[0].font_params.font_size = font_size;
  display.text_params[0].font_params.font_color = rgba(1, 1, 1, 1);
  overlay.displays.push_back(display);
  osd::OverlayStats stats;
  osd::Canvas canvas(frame.image());
  check(osd::check_overlay(overlay, {}, "f").ok(), "a text of " + std::to_string(text.size()) + " bytes at " + std::to_string(font_size) + " pt is valid");
  osd::draw_overlay(canvas, overlay, {}, &stats);
  return stats;
}

// Inked pixels of columns [x0, x1) × rows [y0, y1).
int inked(const Frame &frame, int x0, int y0, int x1, int y1) {
  int count = 0;
  for (int y = y0; y < y1; ++y) for (int x = x0; x < x1; ++x) count += frame.at(x, y)[0] > 128 ? 1 : 0;
  return count;
}

std::string repeated(const std::string &unit, size_t times) {
  std::string text;
  for (size_t i = 0; i < times; ++i) text += unit;
  return text;
}

// Texts larger than Cairo's 32 767 px surfaces (and, 10 000 "W" at 256 pt, than Pango's range)
// crashed or drew nothing: they draw clipped to the frame, as short ones do.
void test_long_text() {
  struct Case { std::string text; uint32_t size; const char *name; };
  const Case cases[] = {
      {repeated("x", 4000), 12, "4 000 x at 12 pt"},
      {repeated("abcdefghij", 100), 48, "1 000 characters at 48 pt"},
      {repeated("W", 120), 256, "120 W at 256 pt"},
      {repeated("W", 10000), 256, "10 000 W at 256 pt"},
      {repeated("x\n", 2000), 12, "2 000 lines at 12 pt"},
      {repeated("x\r\n", 20000), 256, "20 000 lines at 256 pt"},
      {repeated("\xc3\xa9", 30000), 64, "30 000 two-byte characters at 64 pt"},
  };
  for (const Case &c : cases) {
    Frame frame(osd::PixelFormat::kRGB, 320, 240);
    const osd::OverlayStats stats = draw_one_text(frame, c.text, c.size);
    const bool many_lines = c.text.find('\n') != std::string::npos;
    // A long line reaches the right edge; many lines reach the bottom one.
    const int edge = many_lines ? inked(frame, 0, 200, 320, 240) : inked(frame, 280, 0, 320, 240);
    check(stats.texts == 1 && edge > 0, std::string(c.name) + ": drawn up to the frame's edge", std::to_string(edge) + " inked pixels there");
  }
  // What is drawn is what a short text draws there: the clip cuts, it does not move.
  Frame one_w(osd::PixelFormat::kRGB, 320, 240), many_w(osd::PixelFormat::kRGB, 320, 240);
  draw_one_text(one_w, "W", 256);
  draw_one_text(many_w, repeated("W", 10000), 256);
  const int half = osd::render_text("Sans", 256, "W")->width / 2;
  bool same = half > 50;
  for (int y = 0; y < 240 && same; ++y) for (int x = 0; x < half && same; ++x) same = one_w.at(x, y) == many_w.at(x, y);
  check(same, "10 000 W at 256 pt: its first W is drawn where a lone W is");
  Frame shifted(osd::PixelFormat::kRGB, 320, 240);
  draw_one_text(shifted, repeated("W", 4000), 256, 250, 100);
  check(inked(shifted, 250, 100, 320, 240) > 0 && inked(shifted, 0, 0, 320, 100) == 0 && inked(shifted, 0, 0, 250, 240) == 0, "a long text near the corner draws only its corner");
  Frame past(osd::PixelFormat::kRGB, 320, 240);
  const osd::OverlayStats past_stats = draw_one_text(past, repeated("W", 4000), 256, 320, 0);
  check(past_stats.texts == 1 && inked(past, 0, 0, 320, 240) == 0, "a text starting past the edge draws nothing");
}

// Every failure names the field as the TypeScript API does.
void check_refused(const osd::FrameOverlay &overlay, const std::string &expected, const std::string &name) {
  const meta::Status status = osd::check_overlay(overlay, {}, "frameItems[2]");
  check(!status.ok() && status.message == expected, name, status.ok() ? "accepted" : status.message);
}

void test_refusals() {
  auto with_object = [](auto edit) {
    osd::FrameOverlay overlay;
    meta::ObjectFields object;
    object.rect_params = box(1, 2, 3, 4, 2, rgba(1, 0, 0, 1));
    object.text_params.display_text = "label";
    object.text_params.font_params.font_size = 10;
    object.text_params.font_params.font_color = rgba(1, 1, 1, 1);
    edit(object);
    overlay.objects.resize(4);
    overlay.objects.push_back(object);
    return overlay;
  };
  check_refused(with_object([](meta::ObjectFields &o) { o.rect_params.border_color.red = 1.5; }),
      "Expected a number from 0 to 1 for frameItems[2].objectItems[4].rectParams.borderColor.red but received 1.5",
      "a border colour above 1");
  check_refused(with_object([](meta::ObjectFields &o) { o.rect_params.border_color.alpha = kNaN; }),
      "Expected a number from 0 to 1 for frameItems[2].objectItems[4].rectParams.borderColor.alpha but received NaN",
      "a NaN alpha");
  check_refused(with_object([](meta::ObjectFields &o) { o.rect_params.has_bg_color = 1; o.rect_params.bg_color.green = -0.25; }),
      "Expected a number from 0 to 1 for frameItems[2].objectItems[4].rectParams.bgColor.green but received -0.25",
      "a negative background colour");
  check(osd::check_overlay(with_object([](meta::ObjectFields &o) { o.rect_params.bg_color.green = 7; }), {}, "f").ok(),
      "a background colour that is not drawn (hasBgColor 0) is not checked");
  check_refused(with_object([](meta::ObjectFields &o) { o.rect_params.width = static_cast<float>(kNaN); }),
      "Expected a width from 0 to 1000000000 px for frameItems[2].objectItems[4].rectParams.width but received NaN",
      "a NaN box width");
  check_refused(with_object([](meta::ObjectFields &o) { o.rect_params.border_width = 2000; }),
      "Expected a width from 0 to 1024 px for frameItems[2].objectItems[4].rectParams.borderWidth but received 2000",
      "too wide a border");
  check_refused(with_object([](meta::ObjectFields &o) { o.text_params.font_params.font_size = 300; }),
      "Expected a font size from 1 to 256 (points) for frameItems[2].objectItems[4].textParams.font.size but received 300",
      "too big a font");
  check_refused(with_object([](meta::ObjectFields &o) { o.text_params.font_params.font_color.blue = 2; }),
      "Expected a number from 0 to 1 for frameItems[2].objectItems[4].textParams.font.color.blue but received 2",
      "a font colour above 1");
  check_refused(with_object([](meta::ObjectFields &o) { o.text_params.set_bg_clr = 1; o.text_params.text_bg_clr.red = kNaN; }),
      "Expected a number from 0 to 1 for frameItems[2].objectItems[4].textParams.bgColor.red but received NaN",
      "a NaN text background");
  check_refused(with_object([](meta::ObjectFields &o) { o.text_params.display_text = "ok \xff"; }),
      "Expected UTF-8 text for frameItems[2].objectItems[4].textParams.displayText but received an invalid byte at offset 3",
      "text that is not UTF-8");
  check_refused(with_object([](meta::ObjectFields &o) { o.mask_params.width = 2; o.mask_params.height = 2; o.mask_params.data = {1, 0, 1}; }),
      "Expected 4 values (width 2 x height 2) for frameItems[2].objectItems[4].maskParams.data but received 3 values",
      "a mask of the wrong size");

  osd::FrameOverlay display_overlay;
  display_overlay.displays.resize(2);
  meta::DisplayFields &display = display_overlay.displays[1];
  display.num_arrows = 1;
  display.arrow_params[0].arrow_width = 2;
  display.arrow_params[0].arrow_color = rgba(1, 1, 1, 1);
  display.arrow_params[0].arrow_head = static_cast<meta::ArrowHead>(7);
  check_refused(display_overlay, "Expected 0 (start), 1 (end) or 2 (both) for frameItems[2].displayMetaItems[1].arrows[0].arrowHead but received 7",
      "a foreign arrow head value");
  display.arrow_params[0].arrow_head = meta::ArrowHead::kEnd;
  display.num_circles = 1;
  display.circle_params[0].radius = 40000;
  check_refused(display_overlay, "Expected a coordinate from 0 to 32767 px for frameItems[2].displayMetaItems[1].circles[0].radius but received 40000",
      "too big a radius");
  display.circle_params[0].radius = 4;
  display.num_lines = 1;
  display.line_params[0].line_width = 1;
  display.line_params[0].line_color = rgba(0, 0, 0, 1.01);
  check_refused(display_overlay, "Expected a number from 0 to 1 for frameItems[2].displayMetaItems[1].lines[0].lineColor.alpha but received 1.01",
      "a line colour above 1");
  osd::OverlayOptions no_display;
  no_display.display_meta = false;
  check(osd::check_overlay(display_overlay, no_display, "f").ok(), "display metas are not checked when they are not drawn");
}

// Through the Batch interface, as the binding draws: chained display metas and 10 000 objects.
void test_through_portable_batch() {
  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, 16, nullptr);
  meta::PortableBatchMeta *data = meta::attach_portable_batch(buffer, 1);
  data->add_frame(meta::FrameFields{});
  meta::PortableBackend batch(data);
  const meta::FrameHandle frame = batch.frame_at(0);
  meta::DisplayContent content;
  for (int i = 0; i < 40; ++i) {
    meta::RectParams rect = box(static_cast<float>(4 * i), 0, 2, 2);
    rect.has_bg_color = 1;
    rect.bg_color = rgba(1, 1, 1, 1);
    content.rects.push_back(rect);
  }
  check(batch.add_display_content(frame, content).ok(), "40 display rects are added (3 chained display metas)");
  const size_t count = 10000;
  std::vector<float> left(count), top(count), width(count, 3), height(count, 3);
  for (size_t i = 0; i < count; ++i) {
    left[i] = static_cast<float>(i % 150);
    top[i] = static_cast<float>(10 + (i / 150) % 60);
  }
  meta::ObjectColumns columns;
  columns.count = count;
  columns.left = left.data();
  columns.top = top.data();
  columns.width = width.data();
  columns.height = height.data();
  columns.border_width = 1;
  columns.border_color = rgba(0, 1, 0, 1);
  check(batch.add_objects(frame, columns).ok(), "10 000 objects are added");
  Frame pixels(osd::PixelFormat::kRGBA, 160, 80);
  osd::OverlayStats stats;
  const meta::Status status = osd::draw_frame_overlay(batch, frame, pixels.image(), {}, "frameItems[0]", &stats);
  check(status.ok(), "10 000 objects draw without error", status.message);
  check(stats.objects == 10000 && stats.boxes == 10000, "every object's box is drawn", std::to_string(stats.boxes));
  check(stats.rects == 40, "every display rect is drawn, past the 16 of one display meta", std::to_string(stats.rects));
  bool all = true;
  for (int i = 0; i < 40; ++i) all = all && pixels.at(4 * i, 0) == std::vector<int>{255, 255, 255};
  check(all, "rect 0 to 39 are on the frame");
  batch.end_call();
  gst_buffer_unref(buffer);
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  test_blending();
  test_box_geometry();
  test_shapes();
  test_text();
  test_long_text();
  test_refusals();
  test_through_portable_batch();
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
