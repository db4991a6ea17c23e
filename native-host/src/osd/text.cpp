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

struct Entry {
  std::string key;
  std::shared_ptr<const RenderedText> text;
};

// One Pango context for the process, used under the lock: Pango contexts and layouts are not
// thread-safe, and rendering a label takes tens of microseconds.
class TextCache {
 public:
  std::shared_ptr<const RenderedText> get(const std::string &font_name, uint32_t font_size, const std::string &text) {
    std::string key;
    key.reserve(font_name.size() + text.size() + 16);
    key.append(font_name).push_back('\x1f');
    key.append(std::to_string(font_size)).push_back('\x1f');
    key.append(text);
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = index_.find(key);
    if (found != index_.end()) {
      ++stats_.hits;
      entries_.splice(entries_.begin(), entries_, found->second);
      return found->second->text;
    }
    ++stats_.renders;
    std::shared_ptr<const RenderedText> rendered = render(font_name, font_size, text);
    entries_.push_front(Entry{key, rendered});
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

  // A cairo_t on an A8 scratch surface of at least width × height. Not clipped (a clip slows
  // text down): what lands outside width × height is never read and is cleared before reuse.
  cairo_t *scratch_for(int width, int height) {
    if (scratch_ == nullptr || cairo_image_surface_get_width(scratch_) < width || cairo_image_surface_get_height(scratch_) < height) {
      const int new_width = std::max(width, scratch_ != nullptr ? cairo_image_surface_get_width(scratch_) : 256);
      const int new_height = std::max(height, scratch_ != nullptr ? cairo_image_surface_get_height(scratch_) : 64);
      if (scratch_cr_ != nullptr) cairo_destroy(scratch_cr_);
      if (scratch_ != nullptr) cairo_surface_destroy(scratch_);
      scratch_ = cairo_image_surface_create(CAIRO_FORMAT_A8, new_width, new_height);
      scratch_cr_ = cairo_create(scratch_);
    }
    return scratch_cr_;
  }

  std::shared_ptr<const RenderedText> render(const std::string &font_name, uint32_t font_size, const std::string &text) {
    auto rendered = std::make_shared<RenderedText>();
    PangoLayout *layout = layout_for(font_name, font_size);
    pango_layout_set_text(layout, text.data(), static_cast<int>(text.size()));
    PangoRectangle logical;  // no ink extents: they cost a glyph lookup each
    pango_layout_get_pixel_extents(layout, nullptr, &logical);
    if (logical.width <= 0 || logical.height <= 0) return rendered;
    rendered->width = logical.width;
    rendered->height = logical.height;
    rendered->pitch = logical.width;
    rendered->pixels.resize(static_cast<size_t>(logical.width) * logical.height);
    // Rendered on one scratch surface kept for the process (a surface and a cairo_t per text
    // cost as much as the text itself), then copied out.
    cairo_t *cr = scratch_for(logical.width, logical.height);
    uint8_t *data = cairo_image_surface_get_data(scratch_);
    const int stride = cairo_image_surface_get_stride(scratch_);
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
    cairo_rectangle(cr, 0, 0, logical.width, logical.height);
    cairo_fill(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    cairo_move_to(cr, -logical.x, -logical.y);
    pango_cairo_show_layout(cr, layout);
    cairo_surface_flush(scratch_);
    for (int y = 0; y < logical.height; ++y) {
      std::memcpy(rendered->pixels.data() + static_cast<size_t>(y) * logical.width, data + static_cast<size_t>(y) * stride, logical.width);
    }
    return rendered;
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

std::shared_ptr<const RenderedText> render_text(const std::string &font_name, uint32_t font_size, const std::string &text) {
  return cache().get(font_name, font_size, text);
}

TextCacheStats text_cache_stats() { return cache().stats(); }

}  // namespace dsnode::osd
