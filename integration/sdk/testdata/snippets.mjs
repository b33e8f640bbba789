// Prints the console's Get started snippets as JSON for snippets_test.go: the very function
// the screen calls (web/console/src/screens/snippets.ts), transpiled with the TypeScript
// compiler of sdk/node (snippets.ts imports nothing, so it transpiles alone).
//   node snippets.mjs <sdk/node dir> <snippets.ts> <scratch dir> '[[origin, key, secret], …]'
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkNode, source, scratch, cases] = process.argv.slice(2);
const ts = createRequire(join(resolve(sdkNode), "package.json"))("typescript");
const { outputText } = ts.transpileModule(readFileSync(source, "utf8"), {
  fileName: source,
  compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
});
const out = join(resolve(scratch), "snippets.mjs");
writeFileSync(out, outputText);
const { snippets } = await import(pathToFileURL(out).href);
console.log(JSON.stringify(JSON.parse(cases).map(([origin, key, secret]) => snippets(origin, key, secret))));
