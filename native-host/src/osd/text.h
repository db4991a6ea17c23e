// Text as nvdsosd renders it on dGPU: Pango lays the text out with a font description
// "<font name> <size>" (size in points at 96 dpi, so 12 points are 16 pixels), Cairo renders
// it with grey-scale anti-aliasing. Here it is rendered once into a coverage map (A8) and
// blended in the font colour by the canvas, so one rendering serves every pixel format and
// colour. Renderings are cached (least recently used first out): labels repeat from frame to
// frame.
//
// Text of any length or size is drawn clipped, as nvdsosd (which lays it out on the frame's own
// Cairo surface) clips it: only the part that can land on the frame is rendered. Two limits make
// that more than an optimisation: Cairo's image surfaces stop at 32 767 px a side, and Pango's
// coordinates (1/1024 px in an int) wrap past about 2 million px. So a text longer than
// kWholeLayoutBytes is laid out piece by piece (each line apart, a long line in pieces of at most
// kWholeLayoutBytes placed one after the other; kerning and ligatures across the joins are lost),
// and laying out stops at the clip's right and bottom edges.
#ifndef DSNODE_OSD_TEXT_H
#define DSNODE_OSD_TEXT_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "osd/canvas.h"

namespace dsnode::osd {

// Cairo's largest image surface side, px.
inline constexpr int32_t kMaxSurfaceSide = 32767;
// Texts up to this many bytes are laid out whole (at most 1024 glyphs of at most a few em at
// 256 points: well inside Pango's range); longer ones piece by piece.
inline constexpr size_t kWholeLayoutBytes = 1024;

// One rendered text: its logical size (what a background box covers) and coverage, both cut to
// the clip it was rendered for when the text is larger.
struct RenderedText {
  int32_t width = 0;
  int32_t height = 0;
  int32_t pitch = 0;
  std::vector<uint8_t> pixels;  // pitch × height, A8
  Coverage coverage() const { return Coverage{pixels.data(), width, height, pitch}; }
};

// Renders `text` (valid UTF-8, callers check) in `font_name` (a Pango family list such as
// "Serif" or "DejaVu Sans Bold"; empty: Pango's default, "Sans") at `font_size` points: all of
// it when it is small (labels: cached whatever the clip), else its top-left `max_width` ×
// `max_height` px (what fits on the frame right and below the text's corner; at most
// kMaxSurfaceSide each). Thread-safe; the result stays valid while the caller holds it.
std::shared_ptr<const RenderedText> render_text(const std::string &font_name, uint32_t font_size, const std::string &text,
    int32_t max_width = kMaxSurfaceSide, int32_t max_height = kMaxSurfaceSide);

// Cached renderings and their bytes, for tests and the bench.
struct TextCacheStats {
  uint64_t renders = 0;  // cache misses: texts laid out and rendered
  uint64_t hits = 0;
  uint64_t entries = 0;
  uint64_t bytes = 0;
};
TextCacheStats text_cache_stats();

}  // namespace dsnode::osd

#endif
