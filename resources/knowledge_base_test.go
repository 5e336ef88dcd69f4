package resources_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/cmem/cmem/resources"
)

const cityGuide = `{"documents":[
  {"id":"lyon","text":"Lyon is known for its bouchons, small traditional restaurants serving local food."},
  {"id":"paris","text":"Paris has the Louvre museum, the Eiffel tower and many restaurants."},
  {"id":"marseille","text":"Marseille is a port city; its fish stew, bouillabaisse, is famous."},
  {"id":"nice","text":"Nice lies on the Riviera.\n\nIts old town has a market."}
]}`

func TestKnowledgeBaseSearch(t *testing.T) {
	kb := mustBuild(t, "knowledge_base", cityGuide)
	tests := []struct {
		name, args string
		want       []string // ids, best first
	}{
		{name: "one clear match", args: `{"query":"where to eat bouchons in Lyon?"}`, want: []string{"lyon"}},
		{name: "case and punctuation ignored", args: `{"query":"FISH-STEW!"}`, want: []string{"marseille"}},
		{name: "rarer term ranks first", args: `{"query":"restaurants louvre"}`, want: []string{"paris", "lyon"}},
		{name: "top_k limits", args: `{"query":"restaurants louvre","top_k":1}`, want: []string{"paris"}},
		{name: "top_k 1.0 is an integer", args: `{"query":"restaurants louvre","top_k":1.0}`, want: []string{"paris"}},
		// One match each, equal idf: the shorter documents win, and
		// equal lengths go by document id.
		{name: "default top_k is 3", args: `{"query":"lyon paris marseille nice"}`, want: []string{"marseille", "nice", "paris"}},
		{name: "top_k 10 with fewer hits", args: `{"query":"riviera","top_k":10}`, want: []string{"nice"}},
		{name: "no match", args: `{"query":"zurich"}`},
		{name: "no words", args: `{"query":"?!"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := kb.Call(context.Background(), json.RawMessage(tt.args))
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			if len(tt.want) == 0 {
				if out != "no matching documents" {
					t.Fatalf("Call = %q, want no matching documents", out)
				}
				return
			}
			if got := resultIDs(out); strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("Call = %q\nids %v, want %v", out, got, tt.want)
			}
		})
	}
}

func TestKnowledgeBaseResultLines(t *testing.T) {
	kb := mustBuild(t, "knowledge_base", cityGuide)
	out, err := kb.Call(context.Background(), json.RawMessage(`{"query":"market"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "[nice] Nice lies on the Riviera. Its old town has a market."; out != want {
		t.Fatalf("Call = %q, want %q (one line per document)", out, want)
	}
	short := mustBuild(t, "knowledge_base", `{"snippet_chars":10,"documents":[{"id":"a","text":"abcdefghijklmnop qrs"}]}`)
	if out, _ := short.Call(context.Background(), json.RawMessage(`{"query":"qrs"}`)); out != "[a] abcdefghij…" {
		t.Fatalf("snippet_chars 10: Call = %q", out)
	}
	opt := mustBuildOpts(t, "knowledge_base", `{"documents":[{"id":"a","text":"abc def ghi"}]}`, resources.Options{SnippetChars: 7})
	if out, _ := opt.Call(context.Background(), json.RawMessage(`{"query":"abc"}`)); out != "[a] abc def…" {
		t.Fatalf("Options.SnippetChars 7: Call = %q", out)
	}
}

func TestKnowledgeBaseArgumentErrors(t *testing.T) {
	kb := mustBuildOpts(t, "knowledge_base", cityGuide, resources.Options{MaxArgumentBytes: 100})
	for _, args := range []string{
		`{}`,
		``,
		`{"query":""}`,
		`{"query":42}`,
		`{"query":"lyon","top_k":0}`,
		`{"query":"lyon","top_k":11}`,
		`{"query":"lyon","top_k":2.5}`,
		`{"query":"lyon","top_k":"2"}`,
		`{"query":"lyon","limit":2}`,
		`["lyon"]`,
		`{"query":`,
		`{"query":"` + strings.Repeat("x", 100) + `"}`,
	} {
		out, err := kb.Call(context.Background(), json.RawMessage(args))
		if !errors.Is(err, resources.ErrArguments) {
			t.Errorf("Call(%s) = %q, %v; want ErrArguments", args, out, err)
		}
	}
}

func TestKnowledgeBaseConfigErrors(t *testing.T) {
	tests := []struct {
		name, config, wantMsg string
		opts                  resources.Options
	}{
		{name: "nothing", config: `{}`, wantMsg: "needs"},
		{name: "both", config: `{"documents":[{"id":"a","text":"x"}],"path":"docs"}`, wantMsg: "not both"},
		{name: "empty list", config: `{"documents":[]}`, wantMsg: "documents is empty"},
		{name: "empty id", config: `{"documents":[{"id":"","text":"x"}]}`, wantMsg: "documents[0].id"},
		{name: "blank text", config: `{"documents":[{"id":"a","text":"  "}]}`, wantMsg: "documents[0].text"},
		{name: "duplicate", config: `{"documents":[{"id":"a","text":"x"},{"id":"a","text":"y"}]}`, wantMsg: `duplicate id "a"`},
		{name: "documents not a list", config: `{"documents":{"id":"a"}}`, wantMsg: `"documents"`},
		{name: "too many", config: `{"documents":[{"id":"a","text":"x"},{"id":"b","text":"y"}]}`, wantMsg: "limit of 1", opts: resources.Options{MaxDocuments: 1}},
		{name: "too large", config: `{"documents":[{"id":"a","text":"abcd"}]}`, wantMsg: "documents[0].text: 4 bytes", opts: resources.Options{MaxDocumentBytes: 3}},
		{name: "negative snippet", config: `{"snippet_chars":-1,"documents":[{"id":"a","text":"x"}]}`, wantMsg: "snippet_chars"},
		{name: "path without root", config: `{"path":"docs"}`, wantMsg: "no document root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := resources.Build("kb", "knowledge_base", "", json.RawMessage(tt.config), tt.opts)
			if !errors.Is(err, resources.ErrConfig) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("Build = %v, want ErrConfig mentioning %q", err, tt.wantMsg)
			}
		})
	}
}

// resultIDs returns the ids of "[id] text" lines.
func resultIDs(out string) []string {
	var ids []string
	for line := range strings.Lines(out) {
		id, _, _ := strings.Cut(strings.TrimPrefix(line, "["), "]")
		ids = append(ids, id)
	}
	return ids
}

// BenchmarkKnowledgeBaseSearch searches 1000 synthetic documents of 80 words
// drawn from a 5000-word vocabulary with a Zipf-like skew, as real text has.
func BenchmarkKnowledgeBaseSearch(b *testing.B) {
	const docs, words, vocab = 1000, 80, 5000
	word := func(i int) string { return fmt.Sprintf("w%d", i) }
	seed := uint64(1)
	rnd := func() int { // xorshift: reproducible, no global state
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		r := int(seed % vocab)
		return r * r / vocab // skews towards small ids, like word frequencies
	}
	type doc struct {
		ID   string `json:"id"`
		Text string `json:"text"`
	}
	cfg := struct {
		Documents []doc `json:"documents"`
	}{}
	for d := range docs {
		ws := make([]string, words)
		for i := range ws {
			ws[i] = word(rnd())
		}
		cfg.Documents = append(cfg.Documents, doc{ID: fmt.Sprintf("doc-%d", d), Text: strings.Join(ws, " ")})
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		b.Fatal(err)
	}
	kb := mustBuild(b, "knowledge_base", string(raw))
	queries := make([]json.RawMessage, 64)
	for i := range queries {
		queries[i] = json.RawMessage(fmt.Sprintf(`{"query":"%s %s %s","top_k":5}`, word(rnd()), word(rnd()), word(rnd()+100)))
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := kb.Call(ctx, queries[i%len(queries)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}

func TestKnowledgeBaseConcurrentCalls(t *testing.T) {
	kb := mustBuild(t, "knowledge_base", cityGuide)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				out, err := kb.Call(context.Background(), json.RawMessage(`{"query":"restaurants louvre"}`))
				if err != nil || strings.Join(resultIDs(out), ",") != "paris,lyon" {
					t.Errorf("Call = %q, %v", out, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestKnowledgeBaseSearchForReach(t *testing.T) {
	tool, err := resources.Build("dishes", "knowledge_base", "regional dishes", json.RawMessage(`{"documents":[
		{"id":"lyon","text":"Lyon is famous for quenelles and praline tart."},
		{"id":"nice","text":"Nice is famous for socca."},
		{"id":"weather","text":"It rains in Brest."}]}`), resources.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := tool.(interface{ Search(string, int) []string })
	if !ok {
		t.Fatal("a knowledge base has no Search")
	}
	got := s.Search("what is Lyon famous for", 2)
	if len(got) != 2 || got[0] != "Lyon is famous for quenelles and praline tart." || got[1] != "Nice is famous for socca." {
		t.Fatalf("Search = %q", got)
	}
	if got := s.Search("Lyon", 0); len(got) != 0 {
		t.Fatalf("k=0 gave %q", got)
	}
	if got := s.Search("zebra", 3); len(got) != 0 {
		t.Fatalf("no match gave %q", got)
	}
}
