/**
 * This SDK's side of host protocol v1: wraps an element class so host.js (possibly from
 * another copy of the SDK) can validate props, construct it and drive its hooks. Everything
 * zod- or handle-related happens here, in the bundle's own SDK copy.
 */
import { BatchMeta } from "../metadata/batch-meta.js";
import { GstBuffer } from "../stream/gst-buffer.js";
import { TransformScope } from "../metadata/call/transform-scope.js";
import { installBindings } from "../native/installed-bindings.js";
import type { MetaBinding } from "../native/meta-binding.js";
import { TRANSFORM_DROP_V1, type ElementAdapterV1, type ElementInstanceV1, type HostServicesV1 } from "../protocol/host-protocol-v1.js";
import { validateProperties, validatePropertyChange } from "../properties/validate-properties.js";
import type { Caps } from "../stream/caps.js";
import type { StreamEvent } from "../stream/stream-event.js";
import { SDK_VERSION } from "../version.js";
import { manifestOf, type ElementDefinition } from "./declaration.js";
import { constructWithContext } from "./element-context.js";
import type { Element } from "./element.js";
import { createLogger } from "./logger.js";
import { runtimeHooksOf, type RuntimeHooks } from "./runtime-hooks.js";
import { callSourceHook, hasSourceHook, isThenable } from "./source-events.js";
import { clearSourceStates } from "./source-state.js";

type AnyElement = Element<Record<string, unknown>>;

/**
 * Objects written after they were added reach the native side when the call settles (one
 * write per changed object), then every handle of the call goes stale. A commit error (native
 * re-validation) fails the call like a throw in transform() would.
 */
function commitAndEnd(scope: TransformScope): void {
  try {
    scope.commit();
  } finally {
    scope.end();
  }
}

/** Element.DROP (the same registered symbol) travels to the host; other values do not. */
function droppedOrUndefined(value: unknown): typeof TRANSFORM_DROP_V1 | undefined {
  return value === TRANSFORM_DROP_V1 ? TRANSFORM_DROP_V1 : undefined;
}

class HostedElement implements ElementInstanceV1 {
  private readonly hooks: RuntimeHooks | undefined;

  constructor(
    readonly element: AnyElement,
    private readonly definition: ElementDefinition,
    private readonly meta: MetaBinding | undefined,
  ) {
    this.hooks = runtimeHooksOf(element);
  }

  start(): unknown {
    // A new run: no source of the last one is still linked.
    clearSourceStates(this.element);
    const before = this.hooks?.start();
    return isThenable(before) ? before.then(() => this.element.start()) : this.element.start();
  }

  stop(): unknown {
    const hooks = this.hooks;
    if (hooks === undefined) return this.element.stop();
    let result: unknown;
    try {
      result = this.element.stop();
    } catch (error) {
      void Promise.resolve(hooks.stop()).catch(() => undefined);
      throw error;
    }
    if (!isThenable(result)) return hooks.stop();
    return Promise.resolve(result).finally(() => hooks.stop());
  }

  caps(caps: Caps): unknown {
    return this.element.onCaps(caps);
  }

  event(event: StreamEvent): unknown {
    return hasSourceHook(event) ? callSourceHook(this.element, event) : this.element.onEvent(event);
  }

  property(jsName: string, value: unknown): unknown {
    const previous = this.element.props;
    const next = validatePropertyChange(this.definition.properties, previous, jsName, value) as Record<string, unknown>;
    (this.element as { props: unknown }).props = next;
    this.hooks?.propertyChanged(jsName);
    return this.element.onPropertyChange(jsName, next[jsName], previous[jsName]);
  }

  transform(state: Float64Array): unknown {
    this.hooks?.beforeTransform();
    if (this.meta === undefined) {
      // The host hands the binding to every runtime that transforms; only `ds-element build` (reading the manifest) has none.
      throw new Error(`${this.definition.name}: transform() called by a host that gave no native bindings (HostServicesV1.bindings)`);
    }
    const scope = new TransformScope(state, this.meta);
    let result: unknown;
    try {
      result = this.element.transform(new BatchMeta(scope), new GstBuffer(scope));
    } catch (error) {
      scope.end();
      throw error;
    }
    if (!isThenable(result)) {
      commitAndEnd(scope);
      return droppedOrUndefined(result);
    }
    scope.detach();
    return result.then(
      (value) => {
        commitAndEnd(scope);
        return droppedOrUndefined(value);
      },
      (error: unknown) => {
        scope.end();
        throw error;
      },
    );
  }

  hotReload(previous: object): unknown {
    return this.element.onHotReload(previous as AnyElement);
  }

  destroy(): void {}
}

/** @internal The adapter `Element[HOST_PROTOCOL_V1]` returns. */
export function createAdapterV1(
  cls: new () => Element<object>,
  definition: ElementDefinition,
  services: HostServicesV1,
): ElementAdapterV1 {
  // This bundle's metadata, tensors (Buffer.extract, ops) and runners use the host's bindings:
  // the calls are its.
  const bindings = services.bindings;
  if (bindings !== undefined) installBindings(bindings);
  return Object.freeze({
    protocolVersion: 1 as const,
    sdkVersion: SDK_VERSION,
    name: definition.name,
    manifest: () => manifestOf(definition),
    instantiate(instanceId: number, values: Record<string, unknown>): ElementInstanceV1 {
      const props = validateProperties(definition.properties, values);
      const log = createLogger((level, message, file, line) => services.log(instanceId, level, message, file, line));
      const element = constructWithContext(cls, { props, log }) as AnyElement;
      return new HostedElement(element, definition, bindings?.meta);
    },
  });
}
