/**
 * The stack users see of an error their element raised: the SDK's own frames left out, so it
 * starts at the user's line even when the SDK threw (a value a metadata setter refused, say).
 * `ds-element build` names the SDK's sources `ds-element:/...` in every bundle's source map
 * (cli/build-host.ts, rewriteSdkSources), so with source maps on, SDK frames are those lines.
 */

/** The URL scheme of the SDK's sources in source maps: frames read `(ds-element:/src/...)`. */
export const SDK_SOURCE_SCHEME = "ds-element:";

const SDK_FRAME = new RegExp(`^\\s+at (?:.*\\()?${SDK_SOURCE_SCHEME}/`);

/**
 * `stack` without the frames of the SDK's sources. Kept whole when every frame is the SDK's
 * (an error of the SDK's own, with no user code on the stack).
 *
 * @example
 * ```ts
 * userStack("Error: x\n    at f (ds-element:/src/a.ts:1:1)\n    at g (/home/me/src/index.ts:2:2)");
 * // "Error: x\n    at g (/home/me/src/index.ts:2:2)"
 * ```
 */
export function userStack(stack: string): string {
  const lines = stack.split("\n");
  const kept = lines.filter((line) => !SDK_FRAME.test(line));
  const userFrames = kept.filter((line) => /^\s+at /.test(line));
  return userFrames.length === 0 ? stack : kept.join("\n");
}

/** `thrown` with its stack reduced to the user's frames (when it is an object with a string stack). */
export function withUserStack<T>(thrown: T): T {
  if (typeof thrown === "object" && thrown !== null) {
    const error = thrown as { stack?: unknown };
    try {
      if (typeof error.stack === "string") error.stack = userStack(error.stack);
    } catch {
      // a frozen error or a throwing accessor: report it as it is
    }
  }
  return thrown;
}
