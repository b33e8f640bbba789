// Package webconsole holds the built console web app, embedded so bin/herald serves it.
// `make build` (npm run build in this directory) writes the bundle to dist/ before
// compiling; the bundle is not committed. Without it (a plain `go build` on a machine
// without Node) dist/ holds only .keep and the server answers a page saying how to build
// the console (docs/console.md).
package webconsole

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Files are the console's built files (index.html, assets/…), or only .keep when the
// console was not built into this binary.
func Files() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}
