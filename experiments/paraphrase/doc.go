// Package paraphrase is a benchmark of how well cmem's offline mode
// understands ordinary questions: a generated corpus (Generate) of
// subjects with several attributes each, spread over agents by domain,
// questions that name an attribute by one of several wordings, and the
// ground truth (which agent holds the answer, and the answer's value). Run
// plays it against a real node: one user asks a first round of questions,
// a second user asks questions of which a given share are paraphrases of
// the first user's, and the result counts routing accuracy, answer
// accuracy and the resource calls shared memory saved against the calls
// perfect reuse would have saved.
package paraphrase
