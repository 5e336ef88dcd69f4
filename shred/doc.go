// Package shred owns crypto-shredding: the data keys content is sealed
// under, the store that can truly forget them, and the sealing and opening
// of the content fields of events at the log's codec boundary.
//
// Every content-bearing payload (events.Content) names its data subject. A
// fragment's key, value and embedding are sealed under a key of that one
// fragment; a query's text, subqueries, responses, tool-call arguments and
// answer, and the memory reads made for it, under a key of that one query;
// a memory read outside a query under the user's key. Per-fragment keys
// let one fragment be erased from the log; per-query keys let the answers
// derived from an erased fragment be erased with it, even when they belong
// to another user. Erasing a user destroys every key of the user.
//
// Keys live in a JetStream key-value bucket (one replica per stream
// replica). Destroying a key deletes its message with the server's secure
// erase, which overwrites the bytes in the store files, then writes a
// delete marker so every process's cache forgets it; a tombstone keeps an
// erased user from being given a new key. Identifiers, provenance, times
// and revisions stay in clear: permissions and the audit need them.
//
// A durable vector store (Weaviate) is wrapped in SealedStore, so its files
// hold fragment text only sealed under the same fragment keys.
//
// A sealed field is the string "sealed:v1:<key id>:<base64 nonce+ciphertext>"
// (AES-256-GCM, the key id as additional data). A field whose key is gone
// opens to Erased.
package shred
