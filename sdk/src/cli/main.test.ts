import { describe, expect, it } from "vitest";
import { main, type CliOutput } from "./main.js";

function capture(): CliOutput & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (line) => lines.push(line), err: (line) => lines.push(line) };
}

describe("ds-element CLI", () => {
  it("prints usage for no command (exit 2) and --help (exit 0)", async () => {
    const output = capture();
    expect(await main([], output)).toBe(2);
    expect(output.lines[0]).toMatch(/^Usage: ds-element <command>/);
    expect(await main(["--help"], capture())).toBe(0);
  });

  it("rejects an unknown command and unknown options with exit 2", async () => {
    const output = capture();
    expect(await main(["bulid"], output)).toBe(2);
    expect(output.lines[0]).toMatch(/^ds-element: unknown command "bulid"/);
    const options = capture();
    expect(await main(["build", "--porject", "x"], options)).toBe(2);
    expect(options.lines[0]).toMatch(/^ds-element build: Unknown option '--porject'/);
  });

  it("prints the version", async () => {
    const output = capture();
    expect(await main(["--version"], output)).toBe(0);
    expect(output.lines).toEqual(["0.1.0"]);
  });

  it("reports a build error and exits 1", async () => {
    const output = capture();
    expect(await main(["build", "--project", "/nonexistent/project", "--skip-native"], output)).toBe(1);
    expect(output.lines).toEqual([
      "Expected a package.json in the project folder /nonexistent/project for ds-element build but received none; pass --project <dir>",
    ]);
  });
});
