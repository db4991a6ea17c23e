// The testing harness's writers of NVIDIA components' metas (sdk/src/native/meta-binding.ts,
// StandaloneHarness, documents each): what nvtracker, nvdspreprocess and nvinfer's ROI path
// attach (portable backend only: on DeepStream their stand-ins attach NVIDIA's structs), and
// the frame's sensor information as the source bin writes it (both backends).
#ifndef DSNODE_BINDING_COMPONENT_META_HARNESS_H
#define DSNODE_BINDING_COMPONENT_META_HARNESS_H

#include <node_api.h>

namespace dsnode::metabind {

// addComponentMeta(callId, level, owner, kind, value) → the new user meta's index.
napi_value harness_add_component_meta(napi_env env, napi_callback_info info);
// setSensorInfo(callId, frameIndex, { sourceId, uri, sensorId, sensorName }).
napi_value harness_set_sensor_info(napi_env env, napi_callback_info info);

}  // namespace dsnode::metabind

#endif
