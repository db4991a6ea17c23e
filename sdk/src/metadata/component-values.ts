import { COMPONENT_FIELDS, type ComponentMember, type ComponentStructName } from "../protocol/component-fields.js";

/** @internal A guint64 object id as `ObjectMeta.objectId` reads it: -1 for UNTRACKED_OBJECT_ID. */
export function objectIdNumber(id: bigint): number {
  return id === 0xffff_ffff_ffff_ffffn ? -1 : Number(id);
}

type NativeStruct = Readonly<Record<string, unknown>>;

/** One member of `native` as the public value has it (`member.js` says how the binding handed it over). */
function publicMember(member: ComponentMember, native: NativeStruct): unknown {
  const value = native[member.name];
  switch (member.js) {
    case "value":
      return value;
    case "box":
      return Object.freeze({ left: native.left, top: native.top, width: native.width, height: native.height });
    case "xy":
      return Object.freeze([native[`${member.name}X`], native[`${member.name}Y`]]);
    case "objectId":
      return objectIdNumber(value as bigint);
    case "optional":
      return value ?? undefined;
    case "optionalObjectId":
      return value === null ? undefined : objectIdNumber(value as bigint);
    case "enum":
      return member.values![value as number] ?? member.values![0];
    case "numbers":
      return Object.freeze((value as readonly number[]).slice());
    case "list":
      return Object.freeze((value as readonly NativeStruct[]).map((item) => toComponentValue(member.struct!, item)));
    case "optionalStruct":
      return value === null ? undefined : toComponentValue(member.struct!, value as NativeStruct);
    case "hostFloats": {
      const host = native.host as ArrayBuffer | null;
      if (host === null) return undefined;
      const length = member.count!.reduce((product, name) => product * (native[name] as number), 1);
      return new Float32Array(host, 0, Math.min(length, host.byteLength >> 2));
    }
  }
}

/**
 * @internal The public (frozen) value of component struct `struct` from what the binding read,
 * member by member as protocol/component-fields.ts (the table) says.
 */
export function toComponentValue<T>(struct: ComponentStructName, native: object): T {
  const members = COMPONENT_FIELDS[struct];
  return Object.freeze(Object.fromEntries(members.map((member) => [member.name, publicMember(member, native as NativeStruct)]))) as T;
}
