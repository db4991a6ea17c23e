/**
 * The few zod 4 internals the property mapping reads (`schema._zod.def`). zod documents them
 * for library authors; keeping every access here means a zod upgrade touches one file.
 */
import type { z } from "zod";

/** Any zod schema, classic or core. */
export type AnySchema = z.core.$ZodType;

/** The definition record of a schema: `type` plus kind-specific fields. */
export interface SchemaDef {
  readonly type: string;
  readonly checks?: readonly AnySchema[];
  readonly innerType?: AnySchema;
  readonly element?: AnySchema;
  readonly entries?: Readonly<Record<string, string | number>>;
  readonly values?: readonly unknown[];
  readonly options?: readonly AnySchema[];
  readonly in?: AnySchema;
  readonly out?: AnySchema;
  readonly defaultValue?: unknown;
  readonly check?: string;
  readonly format?: string;
  readonly value?: number;
  readonly inclusive?: boolean;
}

/** The definition of a schema. */
export function defOf(schema: AnySchema): SchemaDef {
  return schema._zod.def as unknown as SchemaDef;
}

/** The checks that constrain a schema, the schema itself first when it is a format (`z.int32()`). */
export function checksOf(schema: AnySchema): SchemaDef[] {
  const own = schema._zod.traits.has("$ZodCheck") ? [defOf(schema)] : [];
  return [...own, ...(defOf(schema).checks ?? []).map(defOf)];
}

/** `.describe()` text, read through the schema's own zod copy. */
export function descriptionOf(schema: AnySchema): string | undefined {
  const description = (schema as { description?: unknown }).description;
  return typeof description === "string" && description.length > 0 ? description : undefined;
}

/** The values of a z.enum(), without the reverse entries TypeScript adds to numeric enums. */
export function enumValuesOf(schema: AnySchema): (string | number)[] {
  const entries = defOf(schema).entries ?? {};
  const numeric = Object.values(entries).filter((value): value is number => typeof value === "number");
  return Object.entries(entries)
    .filter(([key]) => !numeric.includes(Number(key)))
    .map(([, value]) => value);
}
