package access

import "errors"

// ErrInconsistent is returned by Apply for an event that contradicts what the
// graph already holds (a second registration of the same user). The log's
// per-subject expectations prevent it; seeing it means the log was written
// around cmem.
var ErrInconsistent = errors.New("access: event contradicts the projection")
