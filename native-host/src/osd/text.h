// Text as nvdsosd renders it on dGPU: Pango lays the text out with a font description
// "<font name> <size>" (size in points at 96 dpi, so 12 points are 16 pixels), Cairo renders
// it with grey-scale anti-aliasing. Here it is rendered once into a coverage map (A8) and
// blended in the font colour by the canvas, so one rendering serves every pixel format and
// colour. Renderings are cached (least recently used first out): labels repeat from frame to
// frame.
#ifndef DSNODE_OSD_TEXT_H
#define DSNODE_OSD_TEXT_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "osd/canvas.h"

namespace dsnode::osd {

// One rendered text: its logical size (what a background box covers) and coverage.
struct RenderedText {
  int32_t width = 0;
  int32_t height = 0;
  int32_t pitch = 0;
  std::vector<uint8_t> pixels;  // pitch × height, A8
  Coverage coverage() const { return Coverage{pixels.data(), width, height, pitch}; }
};

// Renders `text` (valid UTF-8, callers check) in `font_name` (a Pango family list such as
// "Serif" or "DejaVu Sans Bold"; empty: Pango's default, "Sans") at `font_size` points.
// Thread-safe; the result stays valid while the caller holds it.
std::shared_ptr<const RenderedText> render_text(const std::string &font_name, uint32_t font_size, const std::string &text);

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
