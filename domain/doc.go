// Package domain owns what every use case of cmem shares and every adapter
// may know: the domain errors (mapped to a protocol in one place per
// adapter, e.g. gateway/errors.go), the authenticated caller and the memory
// fragment as the API shows it. It is the innermost package: it imports
// nothing of cmem, so packages that hold use cases of their own (app,
// audit) and the API's clients can share it without importing each other.
// Package app re-exports them under their historical names.
package domain
