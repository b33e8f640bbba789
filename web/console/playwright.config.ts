// Browser journeys of the console. They need a running Herald with the console built in:
// integration/console_test.go starts one and sets HERALD_URL and the fixtures (`make
// test-web`). Chromium is Debian's (apt-get install chromium); never `playwright install`.
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "test/browser",
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: process.env.HERALD_URL,
    browserName: "chromium",
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.HERALD_CHROMIUM || "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-dev-shm-usage"],
    },
  },
});
