// Builds the package with the TypeScript compiler, loaded once:
//   dist/esm  ES modules and .d.ts files, type-checked (tsconfig.json);
//   dist/cjs  the same sources as CommonJS (each file transpiled alone: the sources are
//             isolatedModules) with a package.json marking the folder CommonJS, and the
//             .d.ts files of dist/esm, which describe both.
// Flags:
//   --tests   also transpiles test/ into build/test (ES modules importing the package by
//             its name, so they exercise dist/); `npm run typecheck` type-checks them.
//   --fast    skips type checking and declarations (the Go stack test, which only runs).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const fast = process.argv.includes("--fast");
const tests = process.argv.includes("--tests");

function files(dir, ext) {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(ext) && !f.endsWith(".d.ts"))
    .map((f) => join(dir, f));
}

function transpile(srcDir, outDir, module) {
  for (const f of files(srcDir, ".ts")) {
    const out = ts.transpileModule(readFileSync(f, "utf8"), {
      fileName: f,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module, verbatimModuleSyntax: false, isolatedModules: true },
    });
    const dest = join(outDir, relative(srcDir, f)).replace(/\.ts$/, ".js");
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, out.outputText);
  }
}

function check(project) {
  const cfg = ts.getParsedCommandLineOfConfigFile(join(root, project), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) });
  const program = ts.createProgram({ rootNames: cfg.fileNames, options: cfg.options });
  const emitted = program.emit();
  fail([...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]);
}

function fail(diags) {
  if (diags.length === 0) return;
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => "\n" };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diags, host));
  process.exit(1);
}

const src = join(root, "src");
const esm = join(root, "dist", "esm");
const cjs = join(root, "dist", "cjs");
rmSync(join(root, "dist"), { recursive: true, force: true });
if (fast) {
  transpile(src, esm, ts.ModuleKind.ESNext);
} else {
  check("tsconfig.json");
}
transpile(src, cjs, ts.ModuleKind.CommonJS);
writeFileSync(join(cjs, "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
if (!fast) {
  for (const f of readdirSync(esm).filter((f) => f.endsWith(".d.ts"))) copyFileSync(join(esm, f), join(cjs, f));
}
if (tests) {
  rmSync(join(root, "build"), { recursive: true, force: true });
  transpile(join(root, "test"), join(root, "build", "test"), ts.ModuleKind.ESNext);
}
