// Package webinbox holds the built inbox widget (the <herald-inbox> element and its
// service worker), embedded so the Go binary serves it without Node at build time. The
// files under dist/widget are built by `npm run build` in this directory and committed; a
// test (TestCommittedBundleIsFresh in integration/) checks they match a fresh build.
package webinbox

import (
	"embed"
	"io/fs"
)

//go:embed dist/widget
var dist embed.FS

// Files are the widget's files, at their names under /widget/.
func Files() fs.FS {
	sub, err := fs.Sub(dist, "dist/widget")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}
