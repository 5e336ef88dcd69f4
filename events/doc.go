// Package events owns cmem's vocabulary: the envelope every event travels in,
// the stable wire names of event types, their typed payloads, and the check of
// an event against its JSON Schema (package schemas).
//
// The envelope follows the CloudEvents 1.0 attribute names (specversion, id,
// source, type, subject, time, datacontenttype, dataschema, data) with four
// extensions: schemaversion, actor, correlationid and causationid. Wire names
// (cmem.user.registered, ...) are independent of Go package paths and are never
// renamed; an incompatible payload change is a new schemaversion.
//
// The package knows nothing about NATS or HTTP: it is the inner ring that the
// log, the projectors and the gateway all depend on.
package events
