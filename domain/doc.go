// Package domain owns what every use case of cmem shares and every adapter
// may know: the domain errors (mapped to a protocol in one place per
// adapter, e.g. gateway/errors.go) and the authenticated caller. It is the
// innermost package: it imports nothing of cmem, so packages that hold use
// cases of their own (app, audit) can share it without importing each
// other. Package app re-exports both under their historical names.
package domain
