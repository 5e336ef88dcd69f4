package resources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cmem/cmem/internal/textindex"
)

// kbConfig is the config of a knowledge_base: exactly one of Documents and
// Path.
type kbConfig struct {
	Documents []kbDocument `json:"documents"`
	// Path is a directory of .txt and .md files inside Options.DocumentRoot,
	// relative to it or absolute.
	Path string `json:"path"`
	// SnippetChars overrides Options.SnippetChars for this resource.
	SnippetChars int `json:"snippet_chars"`
}

type kbDocument struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

var kbParameters = fmt.Sprintf(`{"type":"object","properties":{`+
	`"query":{"type":"string","minLength":1,"description":"What to look for, in words the documents would contain."},`+
	`"top_k":{"type":"integer","minimum":1,"maximum":%d,"default":%d,"description":"How many documents to return."}},`+
	`"required":["query"],"additionalProperties":false}`, MaxTopK, DefaultTopK)

type knowledgeBase struct {
	base
	// index ranks the documents by BM25 (ties by document id); snippets
	// holds what a hit shows, by document id.
	index    *textindex.Index
	snippets map[string]string
}

// newKnowledgeIndex indexes docs, which never change afterwards.
func newKnowledgeIndex(docs []kbDocument, snippetChars int) (*textindex.Index, map[string]string) {
	ix := textindex.New(textindex.Config{})
	snippets := make(map[string]string, len(docs))
	for _, d := range docs {
		ix.Add(d.ID, d.Text)
		snippets[d.ID] = snippet(d.Text, snippetChars)
	}
	return ix, snippets
}

func buildKnowledgeBase(b base, raw json.RawMessage, opts Options) (*knowledgeBase, error) {
	var cfg kbConfig
	if err := decodeConfig(raw, &cfg); err != nil {
		return nil, err
	}
	if cfg.SnippetChars < 0 {
		return nil, fmt.Errorf("%w: snippet_chars must be positive", ErrConfig)
	}
	if cfg.SnippetChars == 0 {
		cfg.SnippetChars = opts.SnippetChars
	}
	var docs []kbDocument
	switch {
	case cfg.Documents != nil && cfg.Path != "":
		return nil, fmt.Errorf("%w: give either documents or path, not both", ErrConfig)
	case cfg.Path != "":
		var err error
		if docs, err = readDocumentDir(opts.DocumentRoot, cfg.Path, opts); err != nil {
			return nil, err
		}
	case cfg.Documents != nil:
		if err := checkInlineDocuments(cfg.Documents, opts); err != nil {
			return nil, err
		}
		docs = cfg.Documents
	default:
		return nil, fmt.Errorf("%w: a knowledge_base needs \"documents\": [{\"id\",\"text\"}] or \"path\"", ErrConfig)
	}
	b.params = json.RawMessage(kbParameters)
	var err error
	if b.schema, err = compileArgSchema(b.params, opts.MaxArgumentBytes); err != nil {
		return nil, err
	}
	ix, snippets := newKnowledgeIndex(docs, cfg.SnippetChars)
	return &knowledgeBase{base: b, index: ix, snippets: snippets}, nil
}

// checkInlineDocuments holds inline documents to the same rules as the
// registration use case, so a config replayed from the log cannot bypass
// them, and to the size limits of Options.
func checkInlineDocuments(docs []kbDocument, opts Options) error {
	if len(docs) == 0 {
		return fmt.Errorf("%w: documents is empty", ErrConfig)
	}
	if len(docs) > opts.MaxDocuments {
		return fmt.Errorf("%w: documents: %d documents, more than the limit of %d", ErrConfig, len(docs), opts.MaxDocuments)
	}
	var errs []error
	seen := make(map[string]bool, len(docs))
	for i, d := range docs {
		switch {
		case d.ID == "":
			errs = append(errs, fmt.Errorf("documents[%d].id is empty", i))
		case seen[d.ID]:
			errs = append(errs, fmt.Errorf("documents[%d].id: duplicate id %q", i, d.ID))
		}
		seen[d.ID] = true
		if strings.TrimSpace(d.Text) == "" {
			errs = append(errs, fmt.Errorf("documents[%d].text is empty", i))
		}
		if len(d.Text) > opts.MaxDocumentBytes {
			errs = append(errs, fmt.Errorf("documents[%d].text: %d bytes, more than the limit of %d", i, len(d.Text), opts.MaxDocumentBytes))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %w", ErrConfig, errors.Join(errs...))
	}
	return nil
}

type kbArgs struct {
	Query string `json:"query"`
	// TopK is a float so that 3.0, an integer to JSON Schema, decodes;
	// the schema has already held it to a whole number in 1..MaxTopK.
	TopK float64 `json:"top_k"`
}

// Call implements Tool: it returns the top_k documents by BM25 score as
// "[id] text" lines, best first.
func (kb *knowledgeBase) Call(ctx context.Context, args json.RawMessage) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if _, err := kb.schema.check(args); err != nil {
		return "", err
	}
	a := kbArgs{TopK: DefaultTopK}
	if err := decodeArgs(args, &a); err != nil {
		return "", err
	}
	hits := kb.index.Search(a.Query, int(a.TopK), nil)
	if len(hits) == 0 {
		return "no matching documents", nil
	}
	var sb strings.Builder
	for i, h := range hits {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString("[" + h.ID + "] " + kb.snippets[h.ID])
	}
	return sb.String(), nil
}

// Search returns the snippets of the top k documents by BM25 score, best
// first, without the "[id]" prefix Call adds. It is not a resource call:
// it records nothing and checks no arguments. The pipeline uses it only
// to measure how well an agent's knowledge bases match a query (the
// coordinator's Reach), never to show their text to anyone.
func (kb *knowledgeBase) Search(query string, k int) []string {
	if k <= 0 {
		return nil
	}
	hits := kb.index.Search(query, k, nil)
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = kb.snippets[h.ID]
	}
	return out
}

// snippet returns text on one line (runs of white space become one space),
// cut to at most n characters with an ellipsis, so that every hit is one
// line of bounded size in the agent's context.
func snippet(text string, n int) string {
	var sb strings.Builder
	chars := 0
	for _, w := range strings.Fields(text) {
		if chars > 0 {
			if chars+1 > n {
				return sb.String() + "…"
			}
			sb.WriteByte(' ')
			chars++
		}
		wl := utf8.RuneCountInString(w)
		if chars+wl > n {
			for _, r := range w {
				if chars == n {
					break
				}
				sb.WriteRune(r)
				chars++
			}
			return sb.String() + "…"
		}
		sb.WriteString(w)
		chars += wl
	}
	return sb.String()
}
