/*
 * NVIDIA's downstream consumers, run on what a ds-element element wrote (test/ds-consumers.test.ts).
 * It runs a gst-launch description with an element named `probe` and, on every buffer leaving
 * `probe`, does what one of NVIDIA's elements does with that buffer's NvDsBatchMeta:
 *
 *   nvidia_consumers msgconv <msgconv config> '<pipeline>' [<broker adaptor .so> <conn str> <adaptor config> <topic>]
 *     nvmsgconv with msg2p-newapi=1 (gst-nvmsgconv/gstnvmsgconv.cpp ~975-1060): NVIDIA's
 *     libnvds_msgconv makes one DeepStream-schema payload per object (NvDsMsg2pMetaInfo with
 *     frameMeta and objMeta, payload-type 0) and one minimal-schema payload per frame
 *     (frameMeta only, payload-type 1). Each is printed as a JSON line
 *     {"schema","frameNum","sourceId","payload"}. With a broker, every DeepStream-schema payload is
 *     also sent, in order, through NVIDIA's libnvds_msgbroker (nv_msgbroker_connect /
 *     nv_msgbroker_send_async, as gst-nvmsgbroker does with new-api=1) and the given protocol
 *     adaptor; at EOS it waits for every send callback and prints {"sent","ok","failed"}.
 *
 *   nvidia_consumers events <msgconv config> '<pipeline>'
 *     nvmsgconv's default path (msg2p-newapi=0, gstnvmsgconv.cpp ~1055-1160) on the frame user metas
 *     of type NVDS_EVENT_MSG_META: nvds_msg2p_generate with payload-type 0 per event message
 *     (DeepStream schema) and with payload-type 1 on all of a frame's (minimal schema), on the
 *     buffer and on a gst_buffer_copy() of it (NVIDIA's nvds_batch_meta_copy_func calls each
 *     meta's copy function; unref'ing the copy its release function). One JSON line per payload,
 *     {"schema","copy","frameNum","sourceId","payload"}.
 *
 *   nvidia_consumers analytics '<pipeline>'
 *     what nvdsanalytics attached upstream of `probe`: NvDsAnalyticsFrameMeta per frame and
 *     NvDsAnalyticsObjInfo per object (nvds_analytics_meta.h), found by their meta types, as
 *     deepstream-nvdsanalytics-test reads them; one JSON line per frame.
 *
 * Linked against NVIDIA's libraries built from their source (scripts/build-deepstream-consumers.sh).
 * In the repository only: the package does not ship test/.
 */
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gstnvdsmeta.h"
#include "nvds_analytics_meta.h"
#include "nvdsmeta.h"
#include "nvdsmeta_schema.h"
#include "nvmsgbroker.h"
#include "nvmsgconv.h"
#include "../ds-consumer/probed_pipeline.h"

namespace {

std::string quoted(const char *text, size_t length) {
  std::string out = "\"";
  for (size_t i = 0; i < length; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escaped[8];
      snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}
std::string quoted(const std::string &text) { return quoted(text.data(), text.size()); }

/* ---- msgconv (and msgbroker) ---- */

struct Broker {
  NvMsgBrokerClientHandle handle = nullptr;
  std::string topic;
  std::mutex lock;
  std::condition_variable done;
  int sent = 0, ok = 0, failed = 0;
};

struct MsgConv {
  NvDsMsg2pCtx *full = nullptr;
  NvDsMsg2pCtx *minimal = nullptr;
  Broker *broker = nullptr;
};

void on_sent(void *user, NvMsgBrokerErrorType status) {
  auto *broker = static_cast<Broker *>(user);
  std::lock_guard<std::mutex> guard(broker->lock);
  (status == NV_MSGBROKER_API_OK ? broker->ok : broker->failed) += 1;
  broker->done.notify_all();
}

void on_connection(NvMsgBrokerClientHandle, NvMsgBrokerErrorType status) {
  if (status != NV_MSGBROKER_API_OK) fprintf(stderr, "nvidia_consumers: broker connection event %d\n", status);
}

void print_payload(const char *schema, const NvDsFrameMeta *frame, const NvDsPayload *payload) {
  printf("{\"schema\":\"%s\",\"frameNum\":%d,\"sourceId\":%u,\"payload\":%s}\n", schema, frame->frame_num, frame->source_id,
      quoted(static_cast<const char *>(payload->payload), payload->payloadSize).c_str());
}

void send(Broker *broker, const NvDsPayload *payload) {
  NvMsgBrokerClientMsg message;
  message.topic = const_cast<char *>(broker->topic.c_str());
  message.payload = payload->payload;
  message.payload_len = payload->payloadSize;
  {
    std::lock_guard<std::mutex> guard(broker->lock);
    broker->sent += 1;
  }
  if (nv_msgbroker_send_async(broker->handle, message, on_sent, broker) != NV_MSGBROKER_API_OK) on_sent(broker, NV_MSGBROKER_API_ERR);
}

/* As gstnvmsgconv.cpp's msg2p-newapi path: per frame, payload-type 0 per object, 1 per frame. */
GstPadProbeReturn on_msgconv_buffer(GstPad *, GstPadProbeInfo *info, gpointer data) {
  auto *conv = static_cast<MsgConv *>(data);
  NvDsBatchMeta *batch = gst_buffer_get_nvds_batch_meta(GST_PAD_PROBE_INFO_BUFFER(info));
  if (batch == nullptr) return GST_PAD_PROBE_OK;
  for (NvDsFrameMetaList *l = batch->frame_meta_list; l != nullptr; l = l->next) {
    auto *frame = static_cast<NvDsFrameMeta *>(l->data);
    NvDsMsg2pMetaInfo meta_info = {};
    meta_info.frameMeta = frame;
    meta_info.mediaType = const_cast<gchar *>("video");
    for (NvDsObjectMetaList *o = frame->obj_meta_list; o != nullptr; o = o->next) {
      meta_info.objMeta = o->data;
      NvDsPayload *payload = nvds_msg2p_generate_new(conv->full, &meta_info);
      if (payload == nullptr || payload->payload == nullptr) {
        fprintf(stderr, "nvidia_consumers: nvds_msg2p_generate_new gave no payload for frame %d\n", frame->frame_num);
        exit(1);
      }
      print_payload("deepstream", frame, payload);
      if (conv->broker != nullptr) send(conv->broker, payload);
      nvds_msg2p_release(conv->full, payload);
    }
    meta_info.objMeta = nullptr;
    NvDsPayload *payload = nvds_msg2p_generate_new(conv->minimal, &meta_info);
    print_payload("minimal", frame, payload);
    nvds_msg2p_release(conv->minimal, payload);
  }
  fflush(stdout);
  return GST_PAD_PROBE_OK;
}

/* ---- msgconv's default path: NvDsEventMsgMeta ---- */

void generate_event_payloads(const MsgConv *conv, GstBuffer *buffer, int copy) {
  NvDsBatchMeta *batch = gst_buffer_get_nvds_batch_meta(buffer);
  if (batch == nullptr) return;
  for (NvDsFrameMetaList *l = batch->frame_meta_list; l != nullptr; l = l->next) {
    auto *frame = static_cast<NvDsFrameMeta *>(l->data);
    std::vector<NvDsEvent> events;
    for (NvDsUserMetaList *u = frame->frame_user_meta_list; u != nullptr; u = u->next) {
      auto *user = static_cast<NvDsUserMeta *>(u->data);
      if (user->base_meta.meta_type != NVDS_EVENT_MSG_META) continue;
      auto *msg = static_cast<NvDsEventMsgMeta *>(user->user_meta_data);
      events.push_back(NvDsEvent{msg->type, msg});
    }
    const std::string prefix = std::string("{\"copy\":") + std::to_string(copy) + ",\"schema\":";
    for (NvDsEvent &event : events) {
      NvDsPayload *payload = nvds_msg2p_generate(conv->full, &event, 1);
      printf("%s\"deepstream\",\"frameNum\":%d,\"sourceId\":%u,\"payload\":%s}\n", prefix.c_str(), frame->frame_num,
          frame->source_id, quoted(static_cast<const char *>(payload->payload), payload->payloadSize).c_str());
      nvds_msg2p_release(conv->full, payload);
    }
    if (events.empty()) continue;
    NvDsPayload *payload = nvds_msg2p_generate(conv->minimal, events.data(), events.size());
    printf("%s\"minimal\",\"frameNum\":%d,\"sourceId\":%u,\"payload\":%s}\n", prefix.c_str(), frame->frame_num,
        frame->source_id, quoted(static_cast<const char *>(payload->payload), payload->payloadSize).c_str());
    nvds_msg2p_release(conv->minimal, payload);
  }
}

GstPadProbeReturn on_events_buffer(GstPad *, GstPadProbeInfo *info, gpointer data) {
  auto *conv = static_cast<MsgConv *>(data);
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  generate_event_payloads(conv, buffer, 0);
  GstBuffer *copy = gst_buffer_copy(buffer);
  generate_event_payloads(conv, copy, 1);
  gst_buffer_unref(copy);
  fflush(stdout);
  return GST_PAD_PROBE_OK;
}

/* ---- analytics ---- */

std::string key_of(const std::string &key) { return key; }
std::string key_of(int key) { return std::to_string(key); }

/* NVIDIA's unordered maps as JSON objects, keys sorted so that the lines compare. */
template <typename Map>
std::string json_map(const Map &map) {
  std::map<std::string, std::string> sorted;
  for (const auto &entry : map) sorted[key_of(entry.first)] = std::to_string(entry.second);
  std::string out = "{";
  for (const auto &entry : sorted) out += (out.size() > 1 ? "," : "") + quoted(entry.first) + ":" + entry.second;
  return out + "}";
}

std::string json_strings(const std::vector<std::string> &items) {
  std::string out = "[";
  for (const auto &item : items) out += (out.size() > 1 ? "," : "") + quoted(item);
  return out + "]";
}

GstPadProbeReturn on_analytics_buffer(GstPad *, GstPadProbeInfo *info, gpointer) {
  NvDsBatchMeta *batch = gst_buffer_get_nvds_batch_meta(GST_PAD_PROBE_INFO_BUFFER(info));
  if (batch == nullptr) return GST_PAD_PROBE_OK;
  for (NvDsFrameMetaList *l = batch->frame_meta_list; l != nullptr; l = l->next) {
    auto *frame = static_cast<NvDsFrameMeta *>(l->data);
    std::string frame_json = "null";
    for (NvDsUserMetaList *u = frame->frame_user_meta_list; u != nullptr; u = u->next) {
      auto *user = static_cast<NvDsUserMeta *>(u->data);
      if (user->base_meta.meta_type != NVDS_USER_FRAME_META_NVDSANALYTICS) continue;
      auto *meta = static_cast<NvDsAnalyticsFrameMeta *>(user->user_meta_data);
      frame_json = "{\"uniqueId\":" + std::to_string(meta->unique_id) + ",\"objInROIcnt\":" + json_map(meta->objInROIcnt) +
                   ",\"objLCCurrCnt\":" + json_map(meta->objLCCurrCnt) + ",\"objLCCumCnt\":" + json_map(meta->objLCCumCnt) +
                   ",\"objCnt\":" + json_map(meta->objCnt) + "}";
    }
    std::string objects = "[";
    for (NvDsObjectMetaList *o = frame->obj_meta_list; o != nullptr; o = o->next) {
      auto *object = static_cast<NvDsObjectMeta *>(o->data);
      std::string object_json = "{\"objectId\":" + std::to_string(object->object_id) + ",\"classId\":" + std::to_string(object->class_id) +
                                ",\"analytics\":null}";
      for (NvDsUserMetaList *u = object->obj_user_meta_list; u != nullptr; u = u->next) {
        auto *user = static_cast<NvDsUserMeta *>(u->data);
        if (user->base_meta.meta_type != NVDS_USER_OBJ_META_NVDSANALYTICS) continue;
        auto *meta = static_cast<NvDsAnalyticsObjInfo *>(user->user_meta_data);
        object_json = "{\"objectId\":" + std::to_string(object->object_id) + ",\"classId\":" + std::to_string(object->class_id) +
                      ",\"analytics\":{\"uniqueId\":" + std::to_string(meta->unique_id) + ",\"roiStatus\":" + json_strings(meta->roiStatus) +
                      ",\"lcStatus\":" + json_strings(meta->lcStatus) + ",\"dirStatus\":" + quoted(meta->dirStatus) + "}}";
      }
      objects += (objects.size() > 1 ? "," : "") + object_json;
    }
    printf("{\"frameNum\":%d,\"padIndex\":%u,\"frameMetaType\":%d,\"objectMetaType\":%d,\"frame\":%s,\"objects\":%s]}\n",
        frame->frame_num, frame->pad_index, NVDS_USER_FRAME_META_NVDSANALYTICS, NVDS_USER_OBJ_META_NVDSANALYTICS,
        frame_json.c_str(), objects.c_str());
  }
  fflush(stdout);
  return GST_PAD_PROBE_OK;
}

int usage(const char *self) {
  fprintf(stderr,
      "usage: %s msgconv <msgconv config> '<pipeline with an element named probe>' [<adaptor .so> <conn str> <adaptor config> <topic>]\n"
      "       %s events <msgconv config> '<pipeline with an element named probe>'\n"
      "       %s analytics '<pipeline with an element named probe>'\n",
      self, self, self);
  return 2;
}

int msgconv_main(int argc, char **argv) {
  const bool events = strcmp(argv[1], "events") == 0;
  if (argc != 4 && (argc != 8 || events)) return usage(argv[0]);
  MsgConv conv;
  conv.full = nvds_msg2p_ctx_create(argv[2], NVDS_PAYLOAD_DEEPSTREAM);
  conv.minimal = nvds_msg2p_ctx_create(argv[2], NVDS_PAYLOAD_DEEPSTREAM_MINIMAL);
  if (conv.full == nullptr || conv.minimal == nullptr) {
    fprintf(stderr, "nvidia_consumers: nvds_msg2p_ctx_create failed on %s\n", argv[2]);
    return 1;
  }
  Broker broker;
  if (argc == 8) {
    broker.topic = argv[7];
    broker.handle = nv_msgbroker_connect(argv[5], argv[4], on_connection, argv[6]);
    if (broker.handle == nullptr) {
      fprintf(stderr, "nvidia_consumers: nv_msgbroker_connect(%s, %s) failed\n", argv[5], argv[4]);
      return 1;
    }
    conv.broker = &broker;
  }
  int code = run_probed_pipeline("nvidia_consumers", argv[3], events ? on_events_buffer : on_msgconv_buffer, &conv);
  if (conv.broker != nullptr) {
    std::unique_lock<std::mutex> guard(broker.lock);
    broker.done.wait_for(guard, std::chrono::seconds(5), [&] { return broker.ok + broker.failed >= broker.sent; });
    printf("{\"sent\":%d,\"ok\":%d,\"failed\":%d}\n", broker.sent, broker.ok, broker.failed);
    guard.unlock();
    nv_msgbroker_disconnect(broker.handle);
  }
  nvds_msg2p_ctx_destroy(conv.full);
  nvds_msg2p_ctx_destroy(conv.minimal);
  return code;
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc >= 2 && (strcmp(argv[1], "msgconv") == 0 || strcmp(argv[1], "events") == 0)) return msgconv_main(argc, argv);
  if (argc == 3 && strcmp(argv[1], "analytics") == 0) return run_probed_pipeline("nvidia_consumers", argv[2], on_analytics_buffer, nullptr);
  return usage(argv[0]);
}
