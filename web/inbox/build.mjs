// Builds the widget: dist/widget/herald-inbox.js (the minified ES module entry with Lit and
// socket.io-client inside) and its chunks dist/widget/chunk-<name>-<hash>.js (the parts
// loaded on demand by import(), and code they share with the entry), served by Herald and
// embedded in the Go binary; the npm build in dist/npm (dependencies left to the host's
// bundler), the types in dist/types and the service worker. Fails when what the page loads
// first (the entry and the chunks it imports statically) exceeds the gzip budget (issue
// 32: 35 KB); prints the size of every chunk.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { gzipSync } from "node:zlib";

export const GZIP_BUDGET = 35 * 1024;

// esbuild leaves the text of Lit's css`…` literals as written; this squeezes their white
// space out of the served bundle (about 0.2 KB gzip). Conservative: runs of white space
// become one space, dropped only next to { } ; , (never around ":", which can start a
// pseudo-class after a descendant combinator).
const squeezeCss = {
  name: "squeeze-css-literals",
  setup(b) {
    b.onLoad({ filter: /src[\\/][\w-]+\.ts$/ }, (args) => ({
      loader: "ts",
      contents: readFileSync(args.path, "utf8").replace(
        /css`([^`]*)`/g,
        (_, body) => "css`" + body.replace(/\s+/g, " ").replace(/([{};,]) /g, "$1").replace(/ ([{}])/g, "$1").trim() + "`",
      ),
    }));
  },
};

rmSync("dist/npm", { recursive: true, force: true });
rmSync("dist/types", { recursive: true, force: true });
// Chunk names change with their content: start from an empty directory so none is stale.
rmSync("dist/widget", { recursive: true, force: true });
mkdirSync("dist/widget", { recursive: true });

const served = await build({
  entryPoints: { "herald-inbox": "src/index.ts" },
  outdir: "dist/widget",
  // Every import() of the sources becomes its own chunk, next to the entry (Herald serves
  // /widget/ flat). The hash in a chunk's name lets Herald cache it for a year.
  splitting: true,
  entryNames: "[name]",
  chunkNames: "[name]-[hash]",
  metafile: true,
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  legalComments: "none",
  logLevel: "warning",
  plugins: [squeezeCss],
});
await build({
  entryPoints: ["src/index.ts", "src/client.ts", "src/element.ts", "src/state.ts", "src/i18n.ts", "src/safeurl.ts", "src/lazy.ts", "src/preferences-panel.ts", "src/preferences-quiet.ts", "src/preferences-strings.ts", "src/position.ts", "src/blocks.ts", "src/snooze-menu.ts", "src/snooze-times.ts"],
  outdir: "dist/npm",
  bundle: false,
  format: "esm",
  target: "es2020",
  logLevel: "warning",
});
// The npm build keeps relative imports with .js, as the sources write them.
copyFileSync("src/herald-sw.js", "dist/widget/herald-sw.js");
copyFileSync("src/herald-sw.js", "dist/herald-sw.js");
execFileSync("npx", ["tsc", "-p", "tsconfig.json"], { stdio: "inherit" });

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
const outputs = served.metafile.outputs;
// What the page loads before the element can render: the entry and, recursively, the chunks
// it imports statically (code shared with a lazy part lands in such a chunk).
const initial = new Set();
const visit = (file) => {
  if (initial.has(file)) return;
  initial.add(file);
  for (const i of outputs[file].imports) if (i.kind === "import-statement" && outputs[i.path]) visit(i.path);
};
visit("dist/widget/herald-inbox.js");
let size = 0;
let total = 0;
for (const file of Object.keys(outputs).sort()) {
  const n = gz(file);
  total += n;
  if (initial.has(file)) size += n;
  console.log(`  ${file}: ${(n / 1024).toFixed(1)} KB gzip${initial.has(file) ? " (initial)" : " (on demand)"}`);
}
console.log(`widget: initial ${(size / 1024).toFixed(1)} KB gzip (budget ${GZIP_BUDGET / 1024} KB), all chunks ${(total / 1024).toFixed(1)} KB gzip`);
if (size > GZIP_BUDGET) {
  console.error("the widget's initial load is over its gzip budget");
  process.exit(1);
}
