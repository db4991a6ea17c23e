/**
 * A build failure meant for the user's terminal: the message is complete (file:line first
 * where there is one), the CLI prints it as is and exits 1.
 *
 * @example
 * ```ts
 * try { await buildProject({ projectDir: "." }); }
 * catch (error) { if (error instanceof BuildError) { console.error(error.message); process.exitCode = 1; } }
 * ```
 */
export class BuildError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BuildError";
  }
}
