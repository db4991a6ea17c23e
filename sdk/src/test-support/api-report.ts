/**
 * The public API of one entry point as text: every name it exports, sorted, with the
 * declaration users compile against (the `.d.ts` form, comments and bodies left out). The
 * snapshot test (api-surface.test.ts) compares it with the checked-in report under sdk/api/,
 * so a change of the public surface is made on purpose (`npx vitest run -u`), in the same
 * commit, where a reviewer sees it.
 *
 * Names re-exported from a dependency (`z` from zod) are listed by origin only; `export * as
 * ns` lists the namespace's own exports, indented.
 */
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const PRINTER = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The declaration files tsc would emit for the project of `tsconfigPath`, in memory. */
function emitDeclarations(tsconfigPath: string): { files: Map<string, string>; options: ts.CompilerOptions } {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  });
  if (parsed === undefined) throw new Error(`cannot read ${tsconfigPath}`);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    inlineSources: false,
    noEmit: false,
  };
  const program = ts.createProgram(parsed.fileNames, options);
  const files = new Map<string, string>();
  const result = program.emit(undefined, (file, text) => files.set(resolve(file), text), undefined, true);
  const errors = ts.getPreEmitDiagnostics(program).concat(result.diagnostics).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => "\n" }));
  }
  return { files, options };
}

/** A program over the emitted declarations (they import each other and node_modules). */
function declarationProgram(files: Map<string, string>, options: ts.CompilerOptions): ts.Program {
  const host = ts.createCompilerHost({ ...options, noEmit: true });
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (file) => files.get(resolve(file)) ?? readFile(file);
  host.fileExists = (file) => files.has(resolve(file)) || fileExists(file);
  return ts.createProgram([...files.keys()], { ...options, noEmit: true }, host);
}

function statementOf(declaration: ts.Declaration): ts.Node {
  // `export declare const x: T;` — print the whole statement, not the bare declarator.
  if (ts.isVariableDeclaration(declaration)) return declaration.parent.parent;
  return declaration;
}

function print(node: ts.Node): string {
  return PRINTER.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile()).trim();
}

function indent(text: string, by: string): string {
  return text
    .split("\n")
    .map((line) => (line.length > 0 ? by + line : line))
    .join("\n");
}

function describeExports(checker: ts.TypeChecker, module: ts.Symbol, ownRoot: string): string[] {
  const entries: string[] = [];
  const exports = checker.getExportsOfModule(module).slice().sort((a, b) => a.name.localeCompare(b.name));
  for (const exported of exports) {
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = target.declarations ?? [];
    const first = declarations[0];
    const file = first?.getSourceFile().fileName ?? "";
    let text: string;
    if (!resolve(file).startsWith(ownRoot)) {
      const origin = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? relative(ownRoot, file);
      text = `${exported.name}: re-exported from "${origin}"`;
    } else if (first !== undefined && (ts.isSourceFile(first) || ts.isModuleDeclaration(first)) && target.flags & ts.SymbolFlags.ValueModule) {
      // export * as ns from "..."
      text = `namespace ${exported.name} {\n${indent(describeExports(checker, target, ownRoot).join("\n\n"), "  ")}\n}`;
    } else {
      text = declarations.map((declaration) => print(statementOf(declaration))).join("\n");
      if (target.name !== exported.name) text = `// exported as ${exported.name}\n${text}`;
    }
    entries.push(text);
  }
  return entries;
}

/**
 * The API report of each entry (a source file of the project, e.g. `src/index.ts`), keyed by
 * the entry as given.
 */
export function apiReports(tsconfigPath: string, entries: readonly string[]): Map<string, string> {
  const projectDir = dirname(resolve(tsconfigPath));
  const { files, options } = emitDeclarations(tsconfigPath);
  const program = declarationProgram(files, options);
  const checker = program.getTypeChecker();
  const rootDir = resolve(options.rootDir ?? projectDir);
  const outDir = resolve(options.outDir ?? rootDir);
  const reports = new Map<string, string>();
  for (const entry of entries) {
    const declarationFile = join(outDir, relative(rootDir, resolve(projectDir, entry))).replace(/\.ts$/, ".d.ts");
    const source = program.getSourceFile(declarationFile);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`no declarations emitted for ${entry} (looked for ${declarationFile})`);
    const header = `// Public API of ${entry}: generated by sdk/src/test-support/api-report.ts, checked by sdk/src/api-surface.test.ts.\n`;
    reports.set(entry, `${header}\n${describeExports(checker, module, outDir).join("\n\n")}\n`);
  }
  return reports;
}
