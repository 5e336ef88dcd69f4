// Package python holds the Python client of cmem (src/cmem) and the Go test
// that runs its unittest suite against a live `cmem serve`.
package python
