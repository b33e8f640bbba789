// First the headless client as @heraldhq/inbox publishes it (../dist/npm and ../dist/types,
// gitignored), from ../src, without touching the widget bundle (../dist/widget, committed
// and checked by TestCommittedWidgetBundleIsFresh): this package, its tests and its example
// import "@heraldhq/inbox/client" through node_modules like any app.
// Then builds @heraldhq/inbox-react: dist/index.js (one ESM file; react, react-dom and
// @heraldhq/inbox left to the host's bundler) and the types in dist/types. Then measures
// what the package adds to an app that already has the headless client: a minified bundle
// of the client alone against one of the client and this package (React excluded from
// both). Fails over the budget (issue 32: 10 KB gzip).
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

export const GZIP_BUDGET = 10 * 1024;
const external = ["react", "react-dom", "react/jsx-runtime", "@heraldhq/inbox", "@heraldhq/inbox/*"];

const inboxModules = ["client", "state", "i18n", "safeurl", "api.gen"];
await build({
  entryPoints: inboxModules.map((m) => `../src/${m}.ts`),
  outdir: "../dist/npm",
  format: "esm",
  target: "es2020",
  logLevel: "warning",
});
execFileSync("npx", ["tsc", "-p", "../tsconfig.json"], { stdio: "inherit" });

rmSync("dist", { recursive: true, force: true });
mkdirSync("dist", { recursive: true });
await build({
  entryPoints: ["src/index.ts"],
  outfile: "dist/index.js",
  bundle: true,
  format: "esm",
  target: "es2020",
  jsx: "automatic",
  external,
  // Next.js (App Router) renders these on the server and hydrates them: client components.
  banner: { js: '"use client";' },
  logLevel: "warning",
});
execFileSync("npx", ["tsc", "-p", "tsconfig.json"], { stdio: "inherit" });

/** The gzip size of a minified bundle of `contents` (React left out). */
async function gzipOf(contents) {
  const out = await build({
    stdin: { contents, resolveDir: ".", loader: "ts" },
    bundle: true,
    minify: true,
    write: false,
    format: "esm",
    target: "es2020",
    jsx: "automatic",
    external: ["react", "react-dom", "react/jsx-runtime"],
    legalComments: "none",
    logLevel: "warning",
  });
  return gzipSync(out.outputFiles[0].contents, { level: 9 }).length;
}

// Everything exported is kept (an app using Inbox, Bell and every hook).
const client = await gzipOf(`export * from "@heraldhq/inbox/client";`);
const withReact = await gzipOf(`export * from "@heraldhq/inbox/client"; export * from "./src/index.ts";`);
const added = withReact - client;
const kb = (n) => (n / 1024).toFixed(1);
console.log(`headless client: ${kb(client)} KB gzip; with @heraldhq/inbox-react: ${kb(withReact)} KB gzip; the React package adds ${kb(added)} KB gzip (budget ${GZIP_BUDGET / 1024} KB, React excluded)`);
writeFileSync("dist/size.json", JSON.stringify({ clientGzip: client, withReactGzip: withReact, addedGzip: added, budgetGzip: GZIP_BUDGET }, null, 2) + "\n");
if (added > GZIP_BUDGET) {
  console.error("the React package is over its gzip budget");
  process.exit(1);
}
