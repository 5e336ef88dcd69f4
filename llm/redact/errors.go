package redact

import "errors"

// ErrPattern is returned by CompileBlock for a block pattern that is not a
// valid regular expression.
var ErrPattern = errors.New("redact: invalid block pattern")
