// Package console owns the web console: static assets (HTML, CSS, ES
// modules, no build step) embedded in the binary and the handler that
// serves them at / and /console/. The console holds no privileges of its
// own: it signs in with a cmem token kept in the browser's sessionStorage
// and shows only what the HTTP API answers that token.
package console
