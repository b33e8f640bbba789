// Builds the widget: dist/widget/herald-inbox.js (one minified ES module with Lit and
// socket.io-client inside, served by Herald and embedded in the Go binary), the npm build
// in dist/npm (dependencies left to the host's bundler), the types in dist/types and the
// service worker. Fails when the served bundle exceeds the gzip budget (issue 32: 35 KB).
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
    b.onLoad({ filter: /src[\\/]element\.ts$/ }, (args) => ({
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
mkdirSync("dist/widget", { recursive: true });

await build({
  entryPoints: ["src/index.ts"],
  outfile: "dist/widget/herald-inbox.js",
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  legalComments: "none",
  logLevel: "warning",
  plugins: [squeezeCss],
});
await build({
  entryPoints: ["src/index.ts", "src/client.ts", "src/element.ts", "src/state.ts", "src/i18n.ts", "src/safeurl.ts"],
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

const size = gzipSync(readFileSync("dist/widget/herald-inbox.js"), { level: 9 }).length;
console.log(`dist/widget/herald-inbox.js: ${(size / 1024).toFixed(1)} KB gzip (budget ${GZIP_BUDGET / 1024} KB)`);
if (size > GZIP_BUDGET) {
  console.error("the widget bundle is over its gzip budget");
  process.exit(1);
}
