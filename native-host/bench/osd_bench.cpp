// dsnode-osd-bench: the overlay section of `npm run bench` (bench/harness/osd.mjs). What drawing
// `objects` labelled boxes costs per 1280x720 BGRx frame, dsosd against GStreamer's own way to
// draw with Cairo, cairooverlay, whose draw callback here draws the same boxes and labels (Cairo
// strokes, a Pango layout per label on its background: what an application does with it).
// The pipelines, played in turn in one process (segments.h):
//
//   plain:            videotestsrc ! caps ! fakesink
//   cairooverlay:     videotestsrc ! caps ! cairooverlay (draws the scene) ! fakesink
//   scene:            videotestsrc ! caps ! benchboxes ! fakesink             (writes the metadata)
//   dsosd:            videotestsrc ! caps ! benchboxes ! dsosd ! fakesink
//
// and the same with labels that change every frame (`-changing`: the frame number in each), so
// that dsosd's cache of rendered labels never hits. A frame's drawing cost is
// (T_dsosd − T_scene) / frames and (T_cairooverlay − T_plain) / frames.
//
//   dsnode-osd-bench <frames> <rounds> <objects>
#include <cairo.h>
#include <gst/gst.h>
#include <pango/pangocairo.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "segments.h"

namespace {

constexpr const char *kProgram = "dsnode-osd-bench";
constexpr const char *kCaps = "video/x-raw,format=BGRx,width=1280,height=720,framerate=30/1";

struct Scene {
  int objects = 50;
  bool changing = false;
  guint64 frame = 0;
};

// The benchboxes grid (bench/elements/src/boxes.ts): 10 columns of 125 px from x 20, rows of
// 135 px from y 40, boxes of 100x80, labels 22 px above them.
void draw_scene(GstElement *, cairo_t *cr, guint64, guint64, gpointer data) {
  auto *scene = static_cast<Scene *>(data);
  PangoLayout *layout = pango_cairo_create_layout(cr);
  PangoFontDescription *font = pango_font_description_from_string("Sans 12");
  pango_layout_set_font_description(layout, font);
  pango_font_description_free(font);
  cairo_set_line_width(cr, 3);
  for (int i = 0; i < scene->objects; ++i) {
    const double left = 20 + (i % 10) * 125, top = 40 + (i / 10) * 135;
    cairo_set_source_rgba(cr, 0, 1, 0.3, 1);
    cairo_rectangle(cr, left, top, 100, 80);
    cairo_stroke(cr);
    const std::string text = scene->changing ? "car " + std::to_string(i) + " #" + std::to_string(scene->frame)
                                             : "car " + std::to_string(i);
    pango_layout_set_text(layout, text.c_str(), -1);
    int width = 0, height = 0;
    pango_layout_get_pixel_size(layout, &width, &height);
    cairo_set_source_rgba(cr, 0, 0, 0, 0.6);
    cairo_rectangle(cr, left, top - 22, width, height);
    cairo_fill(cr);
    cairo_set_source_rgba(cr, 1, 1, 1, 1);
    cairo_move_to(cr, left, top - 22);
    pango_cairo_show_layout(cr, layout);
  }
  g_object_unref(layout);
  ++scene->frame;
}

dsnode_bench::Subject subject(const std::string &name, const std::string &middle, long frames) {
  dsnode_bench::Subject made;
  made.name = name;
  made.pipeline = dsnode_bench::parse_pipeline(kProgram, "videotestsrc pattern=black num-buffers=" + std::to_string(frames) +
      " ! " + kCaps + " ! " + middle + (middle.empty() ? "" : " ! ") + "fakesink");
  return made;
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc != 4) dsnode_bench::fail(kProgram, "usage: dsnode-osd-bench <frames> <rounds> <objects>");
  const long frames = std::atol(argv[1]);
  const int rounds = std::atoi(argv[2]);
  const int objects = std::atoi(argv[3]);
  if (frames <= 0 || rounds <= 0 || objects <= 0) dsnode_bench::fail(kProgram, "frames, rounds and objects must be positive");
  const std::string boxes = "benchboxes objects=" + std::to_string(objects);

  Scene stable{objects, false}, changing{objects, true};
  std::vector<dsnode_bench::Subject> subjects;
  subjects.push_back(subject("plain", "", frames));
  for (auto [name, scene] : {std::make_pair("cairooverlay", &stable), std::make_pair("cairooverlay-changing", &changing)}) {
    subjects.push_back(subject(name, "cairooverlay name=overlay", frames));
    GstElement *overlay = gst_bin_get_by_name(GST_BIN(subjects.back().pipeline), "overlay");
    g_signal_connect(overlay, "draw", G_CALLBACK(draw_scene), scene);
    gst_object_unref(overlay);
  }
  subjects.push_back(subject("scene", boxes, frames));
  subjects.push_back(subject("dsosd", boxes + " ! dsosd", frames));
  subjects.push_back(subject("scene-changing", boxes + " changing-labels=true", frames));
  subjects.push_back(subject("dsosd-changing", boxes + " changing-labels=true ! dsosd", frames));
  dsnode_bench::run_rounds(kProgram, subjects, "frames", frames, rounds);
  return 0;
}
