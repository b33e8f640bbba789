// Browser tests of the widget. They need a running Herald and a host page on another
// origin: integration/widget_test.go starts both and sets HERALD_URL, PAGE_URL and the
// apps' credentials (`make test-web`). Chromium is Debian's (apt-get install chromium);
// never `playwright install`.
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
