// Builds the package: tsc twice, once for ESM (dist/esm) and once for CommonJS (dist/cjs,
// marked by its own package.json), each with its .d.ts files. With --tests it also compiles
// test/ into build/test (they import the package by its name, so they test dist/).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

function run(project) {
  const r = spawnSync(process.execPath, [tsc, "-p", join(root, project)], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

rmSync(join(root, "dist"), { recursive: true, force: true });
run("tsconfig.json");
run("tsconfig.cjs.json");
writeFileSync(join(root, "dist", "cjs", "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
if (process.argv.includes("--tests")) {
  rmSync(join(root, "build"), { recursive: true, force: true });
  mkdirSync(join(root, "build"), { recursive: true });
  run("tsconfig.test.json");
}
