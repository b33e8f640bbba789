import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// `npm run dev` serves the console with hot reload and forwards the APIs to a running
// `herald dev` (HERALD_URL, default http://localhost:8080), so the console and the API
// share one origin as in production (the refresh cookie is SameSite=Strict).
const target = process.env.HERALD_URL ?? "http://localhost:8080";

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
  server: {
    port: 5173,
    proxy: {
      "/v1": { target, changeOrigin: false },
      "/v3": { target, changeOrigin: false },
      "/widget": { target, changeOrigin: false },
    },
  },
});
