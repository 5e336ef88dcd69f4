package console

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed assets
var assets embed.FS

// csp allows nothing from other hosts: deployments are often air-gapped,
// and a console that shows memory must not be scriptable from elsewhere.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the console: index.html at /, its icon at /favicon.ico
// and the assets under /console/.
func Handler() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	files := http.StripPrefix("/console/", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		switch r.URL.Path {
		case "/":
			http.ServeFileFS(w, r, sub, "index.html")
			return
		case "/favicon.ico": // browsers ask for it at the root, whatever the page says
			h.Set("Cache-Control", "max-age=86400")
			http.ServeFileFS(w, r, sub, "favicon.ico")
			return
		}
		files.ServeHTTP(w, r)
	})
}
