// First the headless client as @heraldhq/inbox publishes it (../dist/npm and ../dist/types,
// gitignored), from ../src, without touching the widget bundle (../dist/widget, committed
// and checked by TestCommittedWidgetBundleIsFresh): this package, its tests and its example
// import "@heraldhq/inbox/client" through node_modules like any app.
// Then builds @heraldhq/inbox-react: dist/index.js (ESM, with the chunks <Inbox/> loads on
// demand beside it; react, react-dom and @heraldhq/inbox left to the host's bundler) and the types in dist/types. Then measures
// what the package adds to an app that already has the headless client: a minified bundle
// of the client alone against one of the client and this package (React excluded from
// both; what the entry loads, the lazily loaded chunks reported apart). Fails over the
// budget (issue 32: 10 KB gzip).
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { gzipSync } from "node:zlib";

export const GZIP_BUDGET = 10 * 1024;
const external = ["react", "react-dom", "react/jsx-runtime", "@heraldhq/inbox", "@heraldhq/inbox/*"];

const inboxModules = ["client", "state", "i18n", "safeurl", "api.gen", "preferences-strings", "snooze-times"];
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
// dist/index.js and, beside it, the chunks <Inbox/> loads on demand (the preferences view and
// the snooze menu: React.lazy on a dynamic import, which the host's bundler keeps lazy).
await build({
  entryPoints: { index: "src/index.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  chunkNames: "[name]-[hash]",
  format: "esm",
  target: "es2020",
  jsx: "automatic",
  external,
  // Next.js (App Router) renders these on the server and hydrates them: client components.
  banner: { js: '"use client";' },
  logLevel: "warning",
});
execFileSync("npx", ["tsc", "-p", "tsconfig.json"], { stdio: "inherit" });

/**
 * The gzip sizes of a minified, code-split bundle of `contents` (React left out): `main`, what
 * the entry loads (its file and the chunks it imports statically, each gzipped as served), and
 * `lazy`, each chunk loaded on demand by a dynamic import.
 */
async function gzipOf(name, contents) {
  const dir = mkdtempSync(join(".", ".size-"));
  try {
    writeFileSync(join(dir, `${name}.ts`), contents);
    const out = await build({
      entryPoints: [join(dir, `${name}.ts`)],
      outdir: join(dir, "out"),
      bundle: true,
      splitting: true,
      minify: true,
      write: false,
      metafile: true,
      format: "esm",
      target: "es2020",
      jsx: "automatic",
      external: ["react", "react-dom", "react/jsx-runtime"],
      legalComments: "none",
      logLevel: "warning",
    });
    const size = {};
    for (const f of out.outputFiles) size[relative(process.cwd(), f.path).split(sep).join("/")] = gzipSync(f.contents, { level: 9 }).length;
    const outputs = out.metafile.outputs;
    const entry = Object.keys(outputs).find((k) => outputs[k].entryPoint);
    const main = new Set();
    const walk = (k) => {
      if (main.has(k)) return;
      main.add(k);
      for (const i of outputs[k].imports) if (i.kind === "import-statement" && !i.external) walk(i.path);
    };
    walk(entry);
    const lazy = {};
    for (const k of Object.keys(outputs)) if (!main.has(k) && k.endsWith(".js")) lazy[basename(k).replace(/-[A-Z0-9]+\.js$/, "")] = size[k];
    return { main: [...main].reduce((n, k) => n + size[k], 0), lazy };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Everything exported is kept (an app using Inbox, Bell and every hook).
const client = (await gzipOf("client", `export * from "@heraldhq/inbox/client";`)).main;
const withReact = await gzipOf("with", `export * from "@heraldhq/inbox/client"; export * from "../src/index.ts";`);
const added = withReact.main - client;
const kb = (n) => (n / 1024).toFixed(1);
const lazyText = Object.entries(withReact.lazy).map(([k, v]) => `${k} ${kb(v)} KB`).join(", ");
console.log(`headless client: ${kb(client)} KB gzip; with @heraldhq/inbox-react: ${kb(withReact.main)} KB gzip; the React package adds ${kb(added)} KB gzip (budget ${GZIP_BUDGET / 1024} KB, React excluded); loaded on demand: ${lazyText}`);
writeFileSync("dist/size.json", JSON.stringify({ clientGzip: client, withReactGzip: withReact.main, addedGzip: added, budgetGzip: GZIP_BUDGET, lazyGzip: withReact.lazy }, null, 2) + "\n");
if (added > GZIP_BUDGET) {
  console.error("the React package is over its gzip budget");
  process.exit(1);
}
