package hashing

// FNV1a64 exposes the inlined hash so tests can hold it to hash/fnv.
var FNV1a64 = fnv1a64
