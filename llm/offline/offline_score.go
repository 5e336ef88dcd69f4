package offline

import (
	"context"
	"regexp"
	"strings"
	"unicode"

	"github.com/cmem/cmem/llm"
)

// Score implements Provider without a model, by documented rules. Each
// candidate gets three features in [0,1]:
//
//   - informative: the value says something — not empty, not a refusal
//     ("no information", "I don't know", "not found"), at least a few
//     content words (full at 12);
//   - specific: it holds particulars — numbers, names (capitalised words
//     inside a sentence), or quoted terms (full at 3);
//   - relevant: the value answers the key — the embedder's alignment of
//     key and value when it aligns, else the share of the key's content
//     words found in the value.
//
// A rubric is scored on the feature its name and description point to
// (accuracy, correctness, relevance → relevant; specificity, detail,
// precision → specific; usefulness, completeness, reusability →
// informative), or on their mean. Its range is the feature ±0.1 mapped onto
// [Min, Max]: a scorer that is sure of nothing gives no point value.
func (o *Provider) Score(_ context.Context, req llm.ScoreRequest) ([]llm.RubricScore, error) {
	f := map[string]float64{
		"informative": informative(req.Value),
		"specific":    specific(req.Value),
		"relevant":    o.relevant(req.Key, req.Value),
	}
	out := make([]llm.RubricScore, 0, len(req.Rubrics))
	for _, r := range req.Rubrics {
		q := (f["informative"] + f["specific"] + f["relevant"]) / 3
		if name := rubricFeature(r); name != "" {
			q = f[name]
		}
		span := r.Max - r.Min
		low, high := r.Clamp(r.Min+span*(q-0.1), r.Min+span*(q+0.1))
		out = append(out, llm.RubricScore{Name: r.Name, Low: low, High: high})
	}
	return out, nil
}

var (
	refusal      = regexp.MustCompile(`(?i)\b(no (relevant )?information|i don'?t know|not (be )?found|unknown|cannot answer|no agents? (were|was) able)\b`)
	featureWords = map[string]*regexp.Regexp{
		"relevant":    regexp.MustCompile(`(?i)accura|correct|relevan|faithful|factual`),
		"specific":    regexp.MustCompile(`(?i)specific|detail|precis|concrete`),
		"informative": regexp.MustCompile(`(?i)useful|complete|reus|informat|helpful|value`),
	}
)

func rubricFeature(r llm.Rubric) string {
	text := r.Name + " " + r.Description
	for _, name := range []string{"relevant", "specific", "informative"} {
		if featureWords[name].MatchString(text) {
			return name
		}
	}
	return ""
}

func informative(v string) float64 {
	if strings.TrimSpace(v) == "" || refusal.MatchString(v) {
		return 0
	}
	return min(float64(len(contentWords(v)))/12, 1)
}

func specific(v string) float64 {
	n := 0
	for i, w := range strings.Fields(v) {
		w = strings.Trim(w, `.,;:!?()[]"'`)
		switch {
		case w == "":
		case strings.ContainsFunc(w, unicode.IsDigit):
			n++
		case i > 0 && unicode.IsUpper([]rune(w)[0]):
			n++
		}
	}
	n += strings.Count(v, `"`) / 2
	return min(float64(n)/3, 1)
}

func (o *Provider) relevant(key, value string) float64 {
	if strings.TrimSpace(key) == "" || strings.TrimSpace(value) == "" {
		return 0
	}
	if a, ok := o.cfg.Embedder.(aligner); ok {
		return float64(min(max(a.Align(key, value), 0), 1))
	}
	kw := contentWords(key)
	if len(kw) == 0 {
		return 0
	}
	in := map[string]bool{}
	for _, w := range contentWords(value) {
		in[w] = true
	}
	hit := 0
	for _, w := range kw {
		if in[w] {
			hit++
		}
	}
	return float64(hit) / float64(len(kw))
}
