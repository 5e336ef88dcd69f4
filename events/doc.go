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
// The schemas are the contract and the schema library has the last word:
// for speed, the data of an event is first checked straight off its bytes
// for the keywords the schemas use (fastcheck.go), and only what that check
// does not accept is decoded for the library, which gives the verdict and
// the message. Tests and a fuzz target hold the two to the same verdicts.
//
// The package knows nothing about NATS or HTTP: it is the inner ring that the
// log, the projectors and the gateway all depend on.
package events
