// Package memory owns the rules of collaborative memory: the policies that
// shape writes and reads (configured by PolicySet events at scopes global,
// agent, user and user+agent, in force from an effective time, the most
// specific winning), the propagation of provenance from the fragments an
// interaction read to the fragments it writes, and the in-memory registry
// of fragments. It knows nothing of NATS, HTTP or a particular vector
// store; the use cases in package app combine it with the access graphs.
package memory
