/** @jsxRuntime automatic */
/** @jsxImportSource react */
// Server rendering of the example app, as Next.js would do it: react-dom/server renders it
// in Node (no window, no document) into dist-19/ssr.html, which the browser then hydrates
// (main.tsx). The browser test fails on any hydration mismatch (React logs it as an error).
// Rendered with the default settings (light, bell on the right); credentials come from the
// query string in the browser and change no markup.
import { readFileSync, writeFileSync } from "node:fs";
import { renderToString } from "react-dom/server";
import { StrictMode } from "react";
import { App } from "./src/App.js";

const dir = process.argv[2] ?? "example/dist-19";
const html = renderToString(
  <StrictMode>
    <App config={{ apiKey: "", user: "", herald: "", theme: "light", custom: false, pos: "right" }} />
  </StrictMode>,
);
const page = readFileSync(`${dir}/index.html`, "utf8");
if (!page.includes('<div id="root"></div>')) throw new Error("prerender: no empty #root in index.html");
writeFileSync(`${dir}/ssr.html`, page.replace('<div id="root"></div>', `<div id="root">${html}</div>`));
console.log(`prerender: ${dir}/ssr.html (${html.length} characters of markup)`);
