#include "osd/text.h"

#include <cairo.h>
#include <pango/pangocairo.h>

#include <algorithm>
#include <cstring>
#include <list>
#include <mutex>
#include <unordered_map>

namespace dsnode::osd {

namespace {

// Enough for every label of a busy scene; a frame full of unique texts (frame counters,
// confidences) cycles through it without growing.
constexpr size_t kMaxEntries = 4096;
constexpr uint64_t kMaxBytes = 32ull << 20;

// A whole rendering larger than this is cut to the clip instead (a label is a few KB).
constexpr uint64_t kMaxWholeBytes = 4ull << 20;
// A scratch surface larger than this (a text over most of a big frame) is freed after use.
constexpr uint64_t kMaxKeptScratchBytes = 4ull << 20;

struct Entry {
  std::string key;
  std::shared_ptr<const RenderedText> text;
  bool whole = false;  // all of the text: serves any clip
  int32_t clip_width = 0, clip_height = 0;  // else: the clip it was rendered for
};

// The end of a piece of `text` from `start` of at most `limit` − `start` bytes, on a character
// boundary (text is UTF-8).
size_t utf8_cut(const std::string &text, size_t start, size_t limit) {
  if (limit >= text.size()) return text.size();
  while (limit > start + 1 && (static_cast<uint8_t>(text[limit]) & 0xC0) == 0x80) --limit;
  return limit;
}

// One Pango context for the process, used under the lock: Pango contexts and layouts are not
// thread-safe, and rendering a label takes tens of microseconds.
class TextCache {
 public:
  std::shared_ptr<const RenderedText> get(const std::string &font_name, uint32_t font_size, const std::string &text,
      int32_t max_width, int32_t max_height) {
    max_width = std::clamp(max_width, 0, kMaxSurfaceSide);
    max_height = std::clamp(max_height, 0, kMaxSurfaceSide);
    std::string key;
    key.reserve(font_name.size() + text.size() + 16);
    key.append(font_name).push_back('\x1f');
    key.append(std::to_string(font_size)).push_back('\x1f');
    key.append(text);
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = index_.find(key);
    if (found != index_.end()) {
      const Entry &entry = *found->second;
      if (entry.whole || (max_width <= entry.clip_width && max_height <= entry.clip_height)) {
        ++stats_.hits;
        entries_.splice(entries_.begin(), entries_, found->second);
        return entry.text;
      }
      // Cut to a smaller clip than this one: rendered again below.
      stats_.bytes -= entry.text->pixels.size();
      entries_.erase(found->second);
      index_.erase(found);
    }
    ++stats_.renders;
    Entry entry;
    entry.clip_width = max_width;
    entry.clip_height = max_height;
    entry.text = render(font_name, font_size, text, max_width, max_height, &entry.whole);
    std::shared_ptr<const RenderedText> rendered = entry.text;
    entry.key = key;
    entries_.push_front(std::move(entry));
    index_.emplace(std::move(key), entries_.begin());
    stats_.bytes += rendered->pixels.size();
    while (entries_.size() > kMaxEntries || (stats_.bytes > kMaxBytes && entries_.size() > 1)) {
      stats_.bytes -= entries_.back().text->pixels.size();
      index_.erase(entries_.back().key);
      entries_.pop_back();
    }
    stats_.entries = entries_.size();
    return rendered;
  }

  TextCacheStats stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

 private:
  PangoContext *context() {
    if (context_ != nullptr) return context_;
    PangoFontMap *font_map = pango_cairo_font_map_new();  // 96 dpi
    context_ = pango_font_map_create_context(font_map);
    g_object_unref(font_map);  // the context holds it
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_ON);
    pango_cairo_context_set_font_options(context_, options);
    cairo_font_options_destroy(options);
    return context_;
  }

  // One layout, reused: a new one per text costs as much as laying the text out. Its font
  // changes only when the requested one does.
  PangoLayout *layout_for(const std::string &font_name, uint32_t font_size) {
    if (layout_ == nullptr) layout_ = pango_layout_new(context());
    if (layout_font_name_ != font_name || layout_font_size_ != font_size || !layout_has_font_) {
      // The size is set apart from the name, so a family name ending in a number stays a name.
      PangoFontDescription *font = pango_font_description_from_string(font_name.c_str());
      pango_font_description_set_size(font, static_cast<gint>(font_size) * PANGO_SCALE);
      pango_layout_set_font_description(layout_, font);
      pango_font_description_free(font);
      layout_font_name_ = font_name;
      layout_font_size_ = font_size;
      layout_has_font_ = true;
    }
    return layout_;
  }

  // A cairo_t on an A8 scratch surface of at least width × height (1 to kMaxSurfaceSide each),
  // its top-left width × height cleared; nullptr when Cairo cannot make one (out of memory).
  // Not clipped (a clip slows text down): what lands outside width × height is never read and
  // is cleared before reuse.
  cairo_t *scratch_for(int width, int height) {
    if (scratch_ == nullptr || cairo_image_surface_get_width(scratch_) < width || cairo_image_surface_get_height(scratch_) < height) {
      const int new_width = std::max(width, scratch_ != nullptr ? cairo_image_surface_get_width(scratch_) : 256);
      const int new_height = std::max(height, scratch_ != nullptr ? cairo_image_surface_get_height(scratch_) : 64);
      release_scratch();
      scratch_ = cairo_image_surface_create(CAIRO_FORMAT_A8, new_width, new_height);
      if (cairo_surface_status(scratch_) != CAIRO_STATUS_SUCCESS) {
        release_scratch();
        return nullptr;
      }
      scratch_cr_ = cairo_create(scratch_);
    }
    cairo_set_operator(scratch_cr_, CAIRO_OPERATOR_CLEAR);
    cairo_rectangle(scratch_cr_, 0, 0, width, height);
    cairo_fill(scratch_cr_);
    cairo_set_operator(scratch_cr_, CAIRO_OPERATOR_OVER);
    return scratch_cr_;
  }

  void release_scratch() {
    if (scratch_cr_ != nullptr) cairo_destroy(scratch_cr_);
    if (scratch_ != nullptr) cairo_surface_destroy(scratch_);
    scratch_cr_ = nullptr;
    scratch_ = nullptr;
  }

  // The top-left width × height of the scratch surface, copied out; a large scratch is freed.
  std::shared_ptr<const RenderedText> copy_out(int32_t width, int32_t height) {
    auto rendered = std::make_shared<RenderedText>();
    if (width <= 0 || height <= 0) return rendered;
    cairo_surface_flush(scratch_);
    const uint8_t *data = cairo_image_surface_get_data(scratch_);
    const int stride = cairo_image_surface_get_stride(scratch_);
    rendered->width = width;
    rendered->height = height;
    rendered->pitch = width;
    rendered->pixels.resize(static_cast<size_t>(width) * height);
    for (int y = 0; y < height; ++y) {
      std::memcpy(rendered->pixels.data() + static_cast<size_t>(y) * width, data + static_cast<size_t>(y) * stride, width);
    }
    if (static_cast<uint64_t>(stride) * cairo_image_surface_get_height(scratch_) > kMaxKeptScratchBytes) release_scratch();
    return rendered;
  }

  // Rendered on one scratch surface kept for the process (a surface and a cairo_t per text cost
  // as much as the text itself), then copied out. *whole: the result is all of the text.
  std::shared_ptr<const RenderedText> render(const std::string &font_name, uint32_t font_size, const std::string &text,
      int32_t max_width, int32_t max_height, bool *whole) {
    PangoLayout *layout = layout_for(font_name, font_size);
    if (text.size() > kWholeLayoutBytes) {
      *whole = false;
      return render_pieces(layout, text, max_width, max_height);
    }
    pango_layout_set_text(layout, text.data(), static_cast<int>(text.size()));
    PangoRectangle logical;  // no ink extents: they cost a glyph lookup each
    pango_layout_get_pixel_extents(layout, nullptr, &logical);
    *whole = true;
    if (logical.width <= 0 || logical.height <= 0) return std::make_shared<RenderedText>();
    int32_t width = logical.width, height = logical.height;
    const bool small = width <= kMaxSurfaceSide && height <= kMaxSurfaceSide &&
        static_cast<uint64_t>(width) * height <= kMaxWholeBytes;
    if (!small) {
      width = std::min(width, max_width);
      height = std::min(height, max_height);
      *whole = width == logical.width && height == logical.height;
      if (width <= 0 || height <= 0) return std::make_shared<RenderedText>();
    }
    cairo_t *cr = scratch_for(width, height);
    if (cr == nullptr) return std::make_shared<RenderedText>();
    cairo_move_to(cr, -logical.x, -logical.y);
    pango_cairo_show_layout(cr, layout);
    return copy_out(width, height);
  }

  // A long text line by line, each line in pieces of at most kWholeLayoutBytes, each piece's
  // logical box right of the previous one and each line below the tallest piece of the line
  // before (as Pango stacks lines); stops at the clip's right and bottom edges.
  std::shared_ptr<const RenderedText> render_pieces(PangoLayout *layout, const std::string &text, int32_t max_width, int32_t max_height) {
    if (max_width <= 0 || max_height <= 0) return std::make_shared<RenderedText>();
    cairo_t *cr = scratch_for(max_width, max_height);
    if (cr == nullptr) return std::make_shared<RenderedText>();
    int64_t y = 0, used_width = 0;
    size_t line_start = 0;
    while (y < max_height) {
      size_t line_end = text.find('\n', line_start);
      if (line_end == std::string::npos) line_end = text.size();
      size_t content_end = line_end;
      if (content_end > line_start && text[content_end - 1] == '\r') --content_end;  // "\r\n" is one break
      int64_t x = 0, line_height = 0;
      size_t piece = line_start;
      do {
        const size_t piece_end = utf8_cut(text, piece, std::min(content_end, piece + kWholeLayoutBytes));
        pango_layout_set_text(layout, text.data() + piece, static_cast<int>(piece_end - piece));
        PangoRectangle logical;
        pango_layout_get_pixel_extents(layout, nullptr, &logical);
        cairo_move_to(cr, static_cast<double>(x - logical.x), static_cast<double>(y - logical.y));
        pango_cairo_show_layout(cr, layout);
        x += std::max(logical.width, 0);
        line_height = std::max<int64_t>(line_height, logical.height);
        piece = piece_end;
      } while (piece < content_end && x < max_width);
      used_width = std::max(used_width, std::min<int64_t>(x, max_width));
      y += std::max<int64_t>(line_height, 1);
      if (line_end == text.size()) break;
      line_start = line_end + 1;
    }
    return copy_out(static_cast<int32_t>(used_width), static_cast<int32_t>(std::min<int64_t>(y, max_height)));
  }

  std::mutex mutex_;
  PangoContext *context_ = nullptr;
  PangoLayout *layout_ = nullptr;
  cairo_surface_t *scratch_ = nullptr;
  cairo_t *scratch_cr_ = nullptr;
  std::string layout_font_name_;
  uint32_t layout_font_size_ = 0;
  bool layout_has_font_ = false;
  std::list<Entry> entries_;  // most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  TextCacheStats stats_;
};

TextCache &cache() {
  static TextCache *instance = new TextCache();  // never destroyed: used until process exit
  return *instance;
}

}  // namespace

std::shared_ptr<const RenderedText> render_text(const std::string &font_name, uint32_t font_size, const std::string &text,
    int32_t max_width, int32_t max_height) {
  return cache().get(font_name, font_size, text, max_width, max_height);
}

TextCacheStats text_cache_stats() { return cache().stats(); }

}  // namespace dsnode::osd
