/**
 * Element names a build must not take. GStreamer's registry holds one feature per name: an
 * element named like another plugin's feature would shadow it, or be shadowed, depending on the
 * order plugins are scanned in (the host plugin skips such a name, so the element would simply
 * be missing). Refused at build time: names any installed plugin provides (from
 * `gst-inspect-1.0`'s listing, which reads the registry without loading plugins) and reserved
 * names, those of GStreamer's core and of DeepStream and ds-element's own elements, which
 * the machine that runs the element may have even when the one that builds it does not.
 */
import { spawnSync } from "node:child_process";

/** The plugin our own elements belong to: an earlier build of this project (or another) is no clash. */
const HOST_PLUGIN = "dsnode";

const BUILTINS = "ds-element's built-in elements";
/** The package of the SDK's built-in elements (sdk/builtin), which may take their names. */
const BUILTIN_PROJECT = "ds-element-builtin";

/** Reserved names and who provides them. */
const RESERVED: ReadonlyMap<string, string> = new Map([
  ...[
    "capsfilter", "clocksync", "concat", "dataurisrc", "downloadbuffer", "fakesink", "fakesrc", "fdsink", "fdsrc", "filesink",
    "filesrc", "funnel", "identity", "input-selector", "multiqueue", "output-selector", "queue", "queue2", "streamiddemux",
    "tee", "typefind", "valve",
  ].map((name) => [name, "GStreamer's coreelements plugin"] as const),
  ...["bin", "pipeline"].map((name) => [name, "GStreamer itself (staticelements)"] as const),
  ...[
    "nvinfer", "nvinferserver", "nvinferaudio", "nvtracker", "nvdsosd", "nvstreammux", "nvstreamdemux", "nvmultistreamtiler",
    "nvvideoconvert", "nvdsanalytics", "nvmsgconv", "nvmsgbroker", "nvdspreprocess", "nvdspostprocess", "nvdsvideotemplate",
    "nvdsaudiotemplate", "nvdewarper", "nvof", "nvofvisual", "nvsegvisual", "nvdslogger", "nvdsmetamux", "nvdsxfer",
    "nvjpegdec", "nvjpegenc", "nvimagedec", "nvimageenc", "nvv4l2decoder", "nvv4l2h264enc", "nvv4l2h265enc", "nvv4l2av1enc",
    "nvurisrcbin", "nvmultiurisrcbin", "nvvideoencfilesinkbin", "nvrtspoutsinkbin", "nvdsasr", "nvds_text_to_speech",
    "nvdsudpsrc", "nvdsudpsink", "nvds3dfilter", "nvds3dbridge", "nvds3drender", "nvblender",
  ].map((name) => [name, "DeepStream"] as const),
  ...["dsmetadump", "dsosd", "dstracker"].map((name) => [name, BUILTINS] as const),
]);

/** Plugin listings by environment, for the life of the process: one `gst-inspect-1.0` per build. */
const listings = new Map<string, ReadonlyMap<string, string> | undefined>();

/**
 * Every feature name the GStreamer registry knows and the plugin providing it, from
 * `gst-inspect-1.0` without arguments; undefined when gst-inspect-1.0 is not installed or fails.
 */
export function installedFeatures(env: NodeJS.ProcessEnv = process.env): ReadonlyMap<string, string> | undefined {
  const key = ["GST_PLUGIN_PATH", "GST_PLUGIN_PATH_1_0", "GST_PLUGIN_SYSTEM_PATH", "GST_PLUGIN_SYSTEM_PATH_1_0", "GST_REGISTRY", "GST_REGISTRY_1_0"]
    .map((name) => env[name] ?? "")
    .join("\0");
  if (!listings.has(key)) {
    const result = spawnSync("gst-inspect-1.0", [], { encoding: "utf8", timeout: 60_000, maxBuffer: 64 * 1024 * 1024, env: { ...env, GST_DEBUG: "" } });
    let features: Map<string, string> | undefined;
    if (!result.error && result.status === 0) {
      features = new Map();
      for (const match of result.stdout.matchAll(/^(\S+):\s+(\S+):\s/gm)) {
        if (!features.has(match[2]!)) features.set(match[2]!, match[1]!);
      }
    }
    listings.set(key, features);
  }
  return listings.get(key);
}

/**
 * Why `name` cannot be an element's name, or undefined when it can: the plugin that provides it
 * on this machine, or who reserved it.
 */
export function nameClash(name: string, installed: ReadonlyMap<string, string> | undefined, projectName?: string): string | undefined {
  const plugin = installed?.get(name);
  if (plugin !== undefined && plugin !== HOST_PLUGIN) return `the installed GStreamer plugin "${plugin}" provides it`;
  const reserved = RESERVED.get(name);
  if (reserved === BUILTINS && projectName === BUILTIN_PROJECT) return undefined;
  return reserved === undefined ? undefined : `it is reserved for ${reserved}`;
}
