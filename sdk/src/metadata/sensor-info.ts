import type { NativeSensorInfo } from "../native/component-meta-binding.js";
import { toComponentValue } from "./component-values.js";

/**
 * The frame's sensor information (`NvDsFrameMeta.sensorInfo_meta`, `NvDsSensorInfo_meta`), as
 * nvmultiurisrcbin's source bins write it from their configuration (`sensor-id`,
 * `sensor-name`, `uri`). DeepStream's frame owns the strings; here they are copies, safe to
 * keep. A string the source left unset (NULL) is undefined.
 *
 * @example
 * ```ts
 * const camera = frame.sensorInfo.sensorId ?? `source-${frame.sourceId}`;
 * ```
 */
export interface SensorInfo {
  // generated: SensorInfo members (npm run generate)
  /** The source's id (`source_id`). */
  readonly sourceId: number;
  /** The source's URI (`uri`). */
  readonly uri: string | undefined;
  /** The sensor's id (`sensor_id`). */
  readonly sensorId: string | undefined;
  /** The sensor's name (`sensor_name`). */
  readonly sensorName: string | undefined;
  // end generated: SensorInfo members
}

/** @internal */
export function toSensorInfo(native: NativeSensorInfo): SensorInfo {
  return toComponentValue("SensorInfo", native);
}
