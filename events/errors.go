package events

import "errors"

var (
	// ErrUnknownType is returned for an event whose type or schema version has
	// no schema in this build.
	ErrUnknownType = errors.New("events: unknown event type or schema version")
	// ErrInvalid is returned for an event that does not match its schema.
	ErrInvalid = errors.New("events: invalid event")
	// ErrInvalidID is returned for an entity id that is not 1-128 characters
	// of [A-Za-z0-9_-]. Ids are NATS subject tokens, so the set is closed.
	ErrInvalidID = errors.New("events: invalid id (want 1-128 characters of A-Z a-z 0-9 _ -)")
)
