// The example app: `npx vite example` (dev) or `npm run build:example` (dist-19 with React
// 19, dist-18 with REACT=18: react and react-dom become the react-18 and react-dom-18
// aliases of package.json). The package and the headless client are imported from their
// sources, so the example builds without building them first.
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

const react18 = process.env.REACT === "18";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  logLevel: "warn",
  esbuild: { jsx: "automatic" },
  resolve: {
    alias: [
      { find: "@heraldhq/inbox-react", replacement: fileURLToPath(new URL("../src/index.ts", import.meta.url)) },
      { find: /^@heraldhq\/inbox\/(client|i18n|safeurl|preferences-strings|snooze-times)$/, replacement: fileURLToPath(new URL("../../src/", import.meta.url)) + "$1.ts" },
      ...(react18
        ? [
            { find: /^react-dom(\/.*)?$/, replacement: "react-dom-18$1" },
            { find: /^react(\/.*)?$/, replacement: "react-18$1" },
          ]
        : []),
    ],
  },
  build: { target: "es2020", chunkSizeWarningLimit: 1000 },
});
