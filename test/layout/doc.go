// Package layout holds the tests that keep the repository's shape as the
// README draws it: the folder map lists every top-level folder, no package
// imports a layer above its own, the production tree imports no test or
// experiment code, and every relative link of the README and docs/ resolves.
package layout
