// Package rerank owns the retriever that learns from the shared pool (seed
// 002 §3.2): a projection of the log that, whenever a fragment is admitted
// to the shared tier by an admission gate, labels candidates from the pool
// and learns from them, and a re-ranker the memory view uses to re-order a
// tier's candidates with what was learned.
//
// Learning (Model.Apply). For an admitted fragment m = (X, Y) (key, value):
//
//   - candidates: BM25 over the pool ranks the shared fragments written
//     before m whose provenance is within m's (agents ⊆ A(m), resources ⊆
//     R(m)) against X and Y, and keeps the top n, as the paper's BM25 step;
//   - labels (offline proxy for Eq. 2): a candidate's p_i = P(¬Y | c_i, X)
//     is estimated as 1 − the share of Y's content words that the
//     candidate's key and value contain; sorted by p, the v/2 lowest are
//     positive (they hold what the new memory says) and the v/2 highest
//     negative (a negative must contribute less than every positive);
//   - learning (Eq. 3): the retriever's logit for a candidate is
//     x_i = w·(s_i − s0) + b_i, s_i its similarity to X; one gradient step
//     of Eq. 3's loss from b = 0 gives each labelled candidate the
//     contribution δ(c_i, m) = η·(y_i − σ(w·(s_i − s0)))/v: a positive the
//     retriever already ranked high is raised little, one it missed much.
//
// Re-ranking (Model.Rerank). For a reader (u, a, t) and query q, a
// candidate c's logit is a linear model of three features,
//
//	w·(sim(q, c) − s0) + Σ_m δ(c, m)·k(q, X_m) + Prior·Σ_m δ(c, m)
//
// its similarity, what it was taught by lessons whose key is like the query
// (k is a kernel on the cosine of q to m's key, zero below Config.Kernel),
// and its learned utility whatever the query, where both sums run only over
// admitted fragments m that access.Admits admits to the reader at t and
// whose key was embedded by the query's embedder (after a change of
// embedder, lessons of the old one go quiet). With no lesson the order is
// the similarity order; the view re-ranks the shared tier only.
//
// Isolation. Everything a contribution δ(c, m) depends on — m, and the
// pool it was labelled from — has provenance within m's, and the read rule
// is monotone in provenance, so every fragment that shaped δ(c, m) is
// admissible to any reader m is admissible to. A reader's ranking therefore
// depends only on fragments that reader may see; a revoke removes the
// influence of what it hides at once, since the sum is taken at read time.
//
// Projection. The model is a pure function of the log: an erasure
// recomputes the lessons whose pool held an erased fragment, exactly as a
// replay that never saw it (its key destroyed) computes them; Digest
// compares a live model with one rebuilt from the log.
package rerank
