package eventlog

import "errors"

var (
	// ErrSubjectTaken is returned by Append with ExpectNew when the subject
	// already holds an event (e.g. a second registration of the same id).
	ErrSubjectTaken = errors.New("eventlog: subject already has events")
	// ErrTooLarge is returned by Append for an event whose encoded form
	// exceeds the server's message limit; the message names both sizes.
	ErrTooLarge = errors.New("eventlog: event too large")
	// ErrEmbeddedNotReady is returned when the embedded server did not start.
	ErrEmbeddedNotReady = errors.New("eventlog: embedded nats-server did not become ready")
)
