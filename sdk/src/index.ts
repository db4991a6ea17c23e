/**
 * ds-element: write GStreamer / DeepStream elements in TypeScript.
 *
 * @example
 * ```ts
 * import { Element, z, type BatchMeta, type Buffer } from "ds-element";
 * ```
 * @packageDocumentation
 */
export { z } from "zod";
export { Element, type ElementClass, type CreateOptions } from "./element/element.js";
export type { ElementDeclaration } from "./element/declaration.js";
export type { ElementLogger, LogSink } from "./element/logger.js";
export { BatchMeta } from "./metadata/batch-meta.js";
export { FrameMeta } from "./metadata/frame-meta.js";
export { Buffer } from "./metadata/buffer.js";
export { StaleHandleError, PropertyValidationError, ElementDefinitionError } from "./errors/errors.js";
export type { Caps, Structure } from "./stream/caps.js";
export type { StreamEvent, StreamEventType } from "./stream/stream-event.js";
export type { ManifestV1, ManifestProperty, ManifestPropertyType, ManifestEnumValue } from "./protocol/manifest.js";
export { SDK_VERSION } from "./version.js";
