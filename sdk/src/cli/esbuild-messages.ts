import { relative } from "node:path";
import type { Message } from "esbuild";

/** `file:line:col: error: text`, the form editors and terminals link. */
export function formatEsbuildMessage(message: Message, kind: "error" | "warning", cwd: string): string {
  const where = message.location
    ? `${relative(cwd, message.location.file) || message.location.file}:${message.location.line}:${message.location.column + 1}: `
    : "";
  const notes = message.notes.map((note) => `\n  note: ${note.text}`).join("");
  return `${where}${kind}: ${message.text}${notes}`;
}

/** The messages of a failed esbuild build (or "" when `error` is not one). */
export function formatEsbuildMessages(error: unknown, cwd: string): string {
  const errors = (error as { errors?: Message[] } | null)?.errors;
  if (!Array.isArray(errors)) return "";
  return errors.map((message) => formatEsbuildMessage(message, "error", cwd)).join("\n");
}
