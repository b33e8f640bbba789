package integration

import "github.com/heraldhq/herald/internal/platform/config"

// consoleRestConfig is the configuration the journeys of web/console/test/browser/rest.spec.ts
// need from TestConsoleInChromium's stack: a Temporal Web UI, so the message logs link each
// message to its run.
func consoleRestConfig(c *config.Config) {
	c.TemporalUIURL = consoleTemporalUI
}

// consoleTemporalUI is the Temporal Web UI the console links to (never opened by the tests).
const consoleTemporalUI = "https://temporal-ui.example.com"
