// Browser tests of the React package: the example app (example/, built by `npm run
// build:example` with React 19 and with React 18, in development mode so StrictMode double-
// mounts) served from another origin than Herald. integration/inbox_react_test.go starts the
// stack and the page server and sets HERALD_URL, PAGE_URL and the app credentials
// (`make test-web`). Chromium is Debian's; never `playwright install`.
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "test/browser",
  timeout: 60_000,
  expect: { timeout: 20_000 },
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    viewport: { width: 900, height: 700 },
    launchOptions: {
      executablePath: process.env.HERALD_CHROMIUM || "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-dev-shm-usage"],
    },
  },
});
