// The example app's entry: settings from the query string
// (?apiKey=…&user=…&herald=https://herald.example.com[&theme=dark][&custom=1][&pos=left]),
// rendered in StrictMode — hydrated when the page holds the server's markup (ssr.html,
// written by prerender.tsx), rendered from scratch otherwise.
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App, type Config } from "./App.js";
import "./app.css";

const q = new URLSearchParams(location.search);
const config: Config = {
  apiKey: q.get("apiKey") ?? "",
  user: q.get("user") ?? "",
  herald: q.get("herald") ?? location.origin,
  theme: q.get("theme") === "dark" ? "dark" : "light",
  custom: !!q.get("custom"),
  pos: q.get("pos") === "left" ? "left" : "right",
};
document.documentElement.dataset.theme = config.theme;

const root = document.getElementById("root")!;
const app = (
  <StrictMode>
    <App config={config} />
  </StrictMode>
);
if (root.hasChildNodes()) hydrateRoot(root, app);
else createRoot(root).render(app);
