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

  it("dev: wants -- before the command, and a command after it", async () => {
    const noSeparator = capture();
    expect(await main(["dev", "gst-launch-1.0"], noSeparator)).toBe(1);
    expect(noSeparator.lines).toEqual(["Expected -- before the command of ds-element dev (usage: ds-element dev [--project DIR] -- gst-launch-1.0 ...)"]);
    const noCommand = capture();
    expect(await main(["dev", "--project", "/nonexistent/project", "--"], noCommand)).toBe(1);
    expect(noCommand.lines).toEqual([
      "Expected a command after -- for ds-element dev but received nothing (usage: ds-element dev [--project DIR] -- gst-launch-1.0 ...)",
    ]);
    const badOption = capture();
    expect(await main(["dev", "--porject", "x", "--", "gst-launch-1.0"], badOption)).toBe(2);
    expect(badOption.lines[0]).toMatch(/^ds-element dev: Unknown option '--porject'/);
  });

  it("dev: a first build that fails is reported and nothing runs", async () => {
    const output = capture();
    expect(await main(["dev", "--project", "/nonexistent/project", "--", "gst-launch-1.0", "fakesrc", "!", "fakesink"], output)).toBe(1);
    expect(output.lines).toEqual([
      "Expected a package.json in the project folder /nonexistent/project for ds-element build but received none; pass --project <dir>",
    ]);
  });
});
