// Package gateway is cmem's HTTP adapter: it authenticates every call,
// decodes JSON strictly, calls one use case of package app, and maps domain
// errors to statuses in one place (errors.go). It holds no state of its own.
package gateway
