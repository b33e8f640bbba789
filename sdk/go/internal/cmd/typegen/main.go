// Command typegen writes types_gen.go from the developer API's OpenAPI document:
//
//	go run ./internal/cmd/typegen -in ../../api/v3/openapi.json -out types_gen.go
package main

import (
	"flag"
	"log"
	"os"

	"github.com/heraldhq/herald/sdk/go/internal/typegen"
)

func main() {
	in := flag.String("in", "../../api/v3/openapi.json", "the OpenAPI document")
	out := flag.String("out", "types_gen.go", "the Go file to write")
	flag.Parse()
	spec, err := os.ReadFile(*in)
	if err != nil {
		log.Fatal(err)
	}
	src, err := typegen.Generate(spec, "herald")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
