export { loadRunner } from "./load-runner.js";
export type { Runner, RunnerBackend, RunnerInputs, TensorInfo, LoadRunnerOptions } from "./types.js";
