// Package snapshot owns projection snapshots: a checkpoint of every
// in-memory projection at one log revision, so that a process starts from
// the newest snapshot plus the tail of the log after it instead of
// replaying the whole log.
//
// A snapshot is one blob in a versioned format (Encode/Decode): a magic, a
// format version, a header naming the revision and each projection's
// section, the sections, and a SHA-256 of all of it. A reader refuses a
// blob of another version or one whose checksum fails, and the process
// falls back to a full rebuild.
//
// A snapshot is a copy of projected state, so it obeys erasure as the log
// does: every section that holds content (fragment texts and vectors,
// query texts and answers) seals each item under the data key of its data
// subject (package shred) when it is written. Erasing a user or a fragment
// destroys those keys, so the copy in every snapshot taken before becomes
// unreadable with them; a restore drops an item whose key is gone exactly
// as a rebuild from the log drops content that opens to events.Erased.
//
// Writer freezes the sections while the projections are quiescent (the
// runner calls it between batches; a Freezer copies its state, which is
// quick) and marshals, seals and uploads them in the background once the
// projections are released, so readers waiting for the next revision are
// not stalled by a snapshot; one is in flight at a time. Restore
// loads the newest at start. Store is where they are kept (natsobj: a
// JetStream object store; snapshottest.Mem in tests).
package snapshot
