// dsnode-trt-build-engine: builds a serialized TensorRT engine from an ONNX model with
// TensorRT's ONNX parser, for the GPU tests (test/gpu/tensorrt-runner.test.ts), where trtexec
// may not be installed. The network is strongly typed: the engine's I/O dtypes are the ONNX
// model's (a float16 or uint8 input stays one).
//
//   dsnode-trt-build-engine MODEL.onnx OUT.engine [--profile NAME:MIN:OPT:MAX]...
//     e.g. --profile images:1x3x4x4:2x3x4x4:8x3x4x4
#include <NvInfer.h>
#include <NvOnnxParser.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

class StderrLogger final : public nvinfer1::ILogger {
 public:
  void log(Severity severity, const char* message) noexcept override {
    if (severity <= Severity::kWARNING) std::fprintf(stderr, "[TensorRT] %s\n", message);
  }
};

bool parse_dims(const std::string& text, nvinfer1::Dims* out) {
  std::stringstream stream(text);
  std::string part;
  out->nbDims = 0;
  while (std::getline(stream, part, 'x')) {
    if (part.empty() || out->nbDims == nvinfer1::Dims::MAX_DIMS) return false;
    out->d[out->nbDims++] = std::stoll(part);
  }
  return out->nbDims > 0;
}

struct Profile {
  std::string name;
  nvinfer1::Dims min, opt, max;
};

bool parse_profile(const std::string& text, Profile* out) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ':')) parts.push_back(part);
  return parts.size() == 4 && !parts[0].empty() && (out->name = parts[0], true) && parse_dims(parts[1], &out->min) &&
      parse_dims(parts[2], &out->opt) && parse_dims(parts[3], &out->max);
}

int fail(const std::string& message) {
  std::fprintf(stderr, "dsnode-trt-build-engine: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    return fail("usage: dsnode-trt-build-engine MODEL.onnx OUT.engine [--profile NAME:MIN:OPT:MAX]...");
  }
  const std::string model = argv[1], out = argv[2];
  std::vector<Profile> profiles;
  for (int i = 3; i < argc; ++i) {
    Profile profile;
    if (std::strcmp(argv[i], "--profile") != 0 || i + 1 >= argc || !parse_profile(argv[++i], &profile)) {
      return fail(std::string("cannot read argument ") + argv[i] + " (expected --profile NAME:MIN:OPT:MAX, dims like 1x3x4x4)");
    }
    profiles.push_back(profile);
  }

  StderrLogger logger;
  std::unique_ptr<nvinfer1::IBuilder> builder(nvinfer1::createInferBuilder(logger));
  if (!builder) return fail("createInferBuilder failed");
#if NV_TENSORRT_MAJOR >= 11
  const uint32_t flags = 0;  // strongly typed always (kSTRONGLY_TYPED is deprecated and ignored from 11.0)
#else
  const auto flags = 1U << static_cast<uint32_t>(nvinfer1::NetworkDefinitionCreationFlag::kSTRONGLY_TYPED);
#endif
  std::unique_ptr<nvinfer1::INetworkDefinition> network(builder->createNetworkV2(flags));
  std::unique_ptr<nvonnxparser::IParser> parser(nvonnxparser::createParser(*network, logger));
  if (!network || !parser) return fail("cannot create the network or the ONNX parser");
  if (!parser->parseFromFile(model.c_str(), static_cast<int>(nvinfer1::ILogger::Severity::kWARNING))) {
    std::string errors;
    for (int32_t i = 0; i < parser->getNbErrors(); ++i) errors += std::string("\n  ") + parser->getError(i)->desc();
    return fail("cannot parse " + model + ":" + errors);
  }
  std::unique_ptr<nvinfer1::IBuilderConfig> config(builder->createBuilderConfig());
  if (!profiles.empty()) {
    nvinfer1::IOptimizationProfile* profile = builder->createOptimizationProfile();
    for (const Profile& entry : profiles) {
      if (!profile->setDimensions(entry.name.c_str(), nvinfer1::OptProfileSelector::kMIN, entry.min) ||
          !profile->setDimensions(entry.name.c_str(), nvinfer1::OptProfileSelector::kOPT, entry.opt) ||
          !profile->setDimensions(entry.name.c_str(), nvinfer1::OptProfileSelector::kMAX, entry.max)) {
        return fail("TensorRT refused the profile of input " + entry.name);
      }
    }
    if (config->addOptimizationProfile(profile) < 0) return fail("TensorRT refused the optimisation profile");
  }
  std::unique_ptr<nvinfer1::IHostMemory> plan(builder->buildSerializedNetwork(*network, *config));
  if (!plan) return fail("building the engine failed (see TensorRT's messages above)");
  std::ofstream file(out, std::ios::binary);
  file.write(static_cast<const char*>(plan->data()), static_cast<std::streamsize>(plan->size()));
  file.close();
  if (!file) return fail("cannot write " + out);
  std::printf("ok: wrote %s (%zu bytes)\n", out.c_str(), plan->size());
  return 0;
}
