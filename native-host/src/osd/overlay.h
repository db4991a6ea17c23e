// What nvdsosd draws, drawn on the CPU on a packed RGB-family frame: the objects' boxes
// (rect_params: border, background when has_bg_color, turned by rotation_angle), their masks
// (mask_params over the box, where a value exceeds the threshold), their labels (text_params:
// display_text at x_offset/y_offset, font, colour and background), and every element of the
// frame's display metas (rects, texts, lines, arrows, circles), clipped to the frame.
//
// Order, back to front: masks, object boxes, display rects, lines, arrows and circles, then
// every text (objects' labels, then display texts), so labels stay readable over boxes.
//
// Geometry: an axis-aligned box covers pixels [round(left), round(left + width)) ×
// [round(top), round(top + height)); its border of width w is centred on the box's edge pixels
// (columns [x − w/2, x − w/2 + w) around edge column x, integer division), pixel-exact. Texts
// have their top-left corner at (x_offset, y_offset); a text background covers the text's
// logical extent (Pango's). Lines, arrows, circles and turned boxes are anti-aliased.
//
// Everything that will be drawn is checked first; a bad value draws nothing and the error names
// the field as the TypeScript API does (frameItems[0].objectItems[3].rectParams.borderColor.red).
#ifndef DSNODE_OSD_OVERLAY_H
#define DSNODE_OSD_OVERLAY_H

#include <cstdint>
#include <string>
#include <vector>

#include "meta/batch.h"
#include "meta/model.h"
#include "osd/canvas.h"

namespace dsnode::osd {

// Largest values drawn; beyond them a value is an error, not a picture.
inline constexpr uint32_t kMaxLineWidth = 1024;    // border, line, arrow and circle widths, px
inline constexpr uint32_t kMaxFontSize = 256;      // points
inline constexpr uint32_t kMaxCoordinate = 32767;  // line/arrow ends, circle centres and radii, px

// What to draw (dsosd's display-* properties).
struct OverlayOptions {
  bool boxes = true;         // objects' rect_params
  bool text = true;          // objects' text_params
  bool masks = true;         // objects' mask_params
  bool display_meta = true;  // display metas, their texts included
};

// What was drawn.
struct OverlayStats {
  uint32_t objects = 0;  // objects of the frame (drawn or not)
  uint32_t boxes = 0, labels = 0, masks = 0;
  uint32_t rects = 0, texts = 0, lines = 0, arrows = 0, circles = 0;  // display meta elements
};

// One frame's metadata as read from a batch.
struct FrameOverlay {
  std::vector<meta::ObjectFields> objects;
  std::vector<meta::DisplayFields> displays;
};

// Reads frame `frame` of `batch`: its objects, then its display metas, in list order.
FrameOverlay read_frame_overlay(const meta::Batch &batch, meta::FrameHandle frame);

// Checks what `options` would draw of `overlay`; `name` prefixes field names ("frameItems[0]").
meta::Status check_overlay(const FrameOverlay &overlay, const OverlayOptions &options, const std::string &name);

// Draws a checked overlay.
void draw_overlay(Canvas &canvas, const FrameOverlay &overlay, const OverlayOptions &options, OverlayStats *stats);

// read + check + draw on `image`.
meta::Status draw_frame_overlay(const meta::Batch &batch, meta::FrameHandle frame, const Image &image,
    const OverlayOptions &options, const std::string &name, OverlayStats *stats);

}  // namespace dsnode::osd

#endif
