/**
 * This SDK's version, stamped into every manifest (`sdkVersion`) and reported by the host
 * adapter. A unit test keeps it equal to package.json's version.
 *
 * @example
 * ```ts
 * import { SDK_VERSION } from "ds-element";
 * console.log(`built with ds-element ${SDK_VERSION}`);
 * ```
 */
export const SDK_VERSION = "0.1.0";
