package eventlog

import "errors"

var (
	// ErrSubjectTaken is returned by Append with ExpectNew when the subject
	// already holds an event (e.g. a second registration of the same id).
	ErrSubjectTaken = errors.New("eventlog: subject already has events")
	// ErrEmbeddedNotReady is returned when the embedded server did not start.
	ErrEmbeddedNotReady = errors.New("eventlog: embedded nats-server did not become ready")
)
