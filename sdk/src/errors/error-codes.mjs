// The `code`s of the errors native code throws and TypeScript matches: the one place they are
// written. `npm run generate` (scripts/generate-shared-names.mjs) writes them into the SDK's
// error module (errors/errors.ts, `<NAME>_CODE`) and into the binding's header
// (native-host/src/binding/js_values.h, `k<Name>Code`). `npm test` fails when either differs
// (test/generated-files.test.ts).
//
// Columns: name (the code is ERR_DS_ELEMENT_<name>), doc (what carries it, after "The code of").

export const ERROR_CODES = [
  { name: "INVALID_VALUE", doc: "every invalid-value error, thrown by JS validation and by native code alike" },
  { name: "META_STATE", doc: "every metadata state error (added twice, wrong parent, used after removal)" },
  { name: "STALE_HANDLE", doc: "the error of a handle used after the call that handed it out ended (StaleHandleError)" },
  { name: "TABLE_FULL", doc: "the error of a full object table in a call: the SDK grows the table, rebinds and retries" },
  { name: "TENSOR", doc: "every tensor error, thrown by the SDK and by native code alike" },
  { name: "RUNNER_LOAD", doc: "the error of a model a runner could not load" },
  { name: "RUNNER_FAILED", doc: "the error of an inference that failed in a runner's backend" },
  { name: "RUNNER_DISPOSED", doc: "the error of a runner used after dispose()" },
];
