/**
 * Writes a zod schema back as the code that would build it (`z.array(z.boolean())`,
 * `z.string().nullable()`), so an unsupported-schema error shows users what they wrote.
 */
import { type AnySchema, checksOf, defOf, enumValuesOf } from "./zod-internals.js";

export function describeSchema(schema: AnySchema): string {
  const def = defOf(schema);
  const inner = (): string => (def.innerType ? describeSchema(def.innerType) : "z.unknown()");
  switch (def.type) {
    case "optional":
    case "nullable":
    case "readonly":
    case "nonoptional":
      return `${inner()}.${def.type}()`;
    case "default":
    case "prefault":
    case "catch":
      return `${inner()}.${def.type}(...)`;
    case "pipe": {
      const input = def.in ? describeSchema(def.in) : "z.unknown()";
      if (def.out && defOf(def.out).type === "transform") return `${input}.transform(...)`;
      return `${input}.pipe(${def.out ? describeSchema(def.out) : "..."})`;
    }
    case "array":
      return `z.array(${def.element ? describeSchema(def.element) : "z.unknown()"})`;
    case "literal":
      return `z.literal(${(def.values ?? []).map((v) => JSON.stringify(v)).join(", ")})`;
    case "enum":
      return `z.enum([${enumValuesOf(schema)
        .map((v) => JSON.stringify(v))
        .join(", ")}])`;
    case "union":
      return `z.union([${(def.options ?? []).map(describeSchema).join(", ")}])`;
    case "object":
      return "z.object({...})";
    case "number":
      return checksOf(schema).some((check) => check.check === "number_format" && check.format !== "float32" && check.format !== "float64")
        ? "z.number().int()"
        : "z.number()";
    default:
      return `z.${def.type}()`;
  }
}
