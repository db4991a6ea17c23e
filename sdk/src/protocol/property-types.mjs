// The GObject property types an element manifest (element.json) can declare: the one place
// their names are written. `npm run generate` (scripts/generate-shared-names.mjs) writes them
// into the TypeScript type of the manifest (protocol/manifest.ts, ManifestPropertyType) and
// into the host plugin's table that reads them (native-host/src/gst/manifest.cpp, whose
// PropertyType enumerator is the name in PascalCase). `npm test` fails when either differs
// (test/generated-files.test.ts).
//
// Columns: name (the manifest spelling), zod (the schema that derives it, for the docs).

export const PROPERTY_TYPES = [
  { name: "boolean", zod: "z.boolean()" },
  { name: "int", zod: "z.number().int() within 32 bits" },
  { name: "int64", zod: "z.number().int() beyond 32 bits" },
  { name: "double", zod: "z.number()" },
  { name: "string", zod: "z.string()" },
  { name: "enum", zod: "z.enum([...])" },
  { name: "double-array", zod: "z.array(z.number())" },
  { name: "int-array", zod: "z.array(z.number().int())" },
  { name: "string-array", zod: "z.array(z.string())" },
];
