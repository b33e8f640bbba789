// Command openapi prints the management API's OpenAPI document (/v1/openapi.json) as the
// server serves it, without a database: the console's `npm run gen:api` generates its API
// types from this output (or from a running Herald when HERALD_URL is set).
package main

import (
	"fmt"
	"io"
	"net/http/httptest"
	"os"

	"github.com/gofiber/fiber/v2"

	v1 "github.com/heraldhq/herald/api/v1"
)

func main() {
	app := fiber.New()
	v1.OpenAPI{}.Register(app.Group("/v1"))
	res, err := app.Test(httptest.NewRequest("GET", "/v1/openapi.json", nil), -1)
	if err != nil || res.StatusCode != 200 {
		fmt.Fprintln(os.Stderr, "openapi: GET /v1/openapi.json:", err, res)
		os.Exit(1)
	}
	if _, err := io.Copy(os.Stdout, res.Body); err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
}
