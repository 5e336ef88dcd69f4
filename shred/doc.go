// Package shred owns crypto-shredding: the data keys content is sealed
// under, the store that can truly forget them, and the sealing and opening
// of the content fields of events at the log's codec boundary.
//
// Every content-bearing payload (events.Content) names its data subject: a
// user, or a user's fragment. Queries, subqueries, responses, answers, tool
// calls and memory reads are sealed under the user's key; a fragment's key,
// value and embedding under a key of that one fragment, so deleting a
// single fragment erases its content from the log too. Erasing a user
// destroys the user's key and every fragment key of the user.
//
// Keys live in a JetStream key-value bucket (one replica per stream
// replica). Destroying a key deletes its message with the server's secure
// erase, which overwrites the bytes in the store files, then writes a
// delete marker so every process's cache forgets it; a tombstone keeps an
// erased user from being given a new key. Identifiers, provenance, times
// and revisions stay in clear: permissions and the audit need them.
//
// A sealed field is the string "sealed:v1:<key id>:<base64 nonce+ciphertext>"
// (AES-256-GCM, the key id as additional data). A field whose key is gone
// opens to Erased.
package shred
