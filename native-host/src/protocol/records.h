// The model's frames and objects as the doubles JS reads: frame records of the state array and
// object rows of an object table (protocol/state_layout.h), the native side of
// sdk/src/protocol/transform-state.ts. Plain C++ (no Node-API): used by the binding and the
// standalone binding (whose addFrame takes a frame record).
#ifndef DSNODE_PROTOCOL_RECORDS_H
#define DSNODE_PROTOCOL_RECORDS_H

#include <gst/gst.h>

#include "meta/batch.h"
#include "meta/model.h"

namespace dsnode::protocol {

// GstClockTime / guint64 timestamps as a double: -1 for GST_CLOCK_TIME_NONE.
double clock_slot(GstClockTime time);

// Fills one frame record (layout::kFrame*). DTS and duration are the buffer's (none without one).
void write_frame_record(const meta::FrameFields& frame, GstBuffer* buffer, double* record);
// Reads the DeepStream fields of a frame record; DTS and duration are ignored (not DeepStream
// fields). Integers are checked and named ("NvDsFrameMeta.source_id"); `out` is untouched on error.
meta::Status read_frame_record(const double* record, meta::FrameFields* out);

// Fills the numeric fields of one object row; parent row and frame index are the caller's.
void write_object_row(const meta::ObjectFields& object, double* row);
// Reads an object row's numeric fields over `fields` (strings, mask and text stay as they are).
// Integer checks only; ranges (confidence, sizes, colours) are validate_object's.
meta::Status read_object_row(const double* row, meta::ObjectFields* fields);

}  // namespace dsnode::protocol

#endif
