package openai_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/embedtest"
	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/embedding/openai"
	"github.com/cmem/cmem/llm/llmtest"
)

func newOpenAI(t *testing.T, srv *llmtest.Server, cfg openai.Config) *openai.Embedder {
	t.Helper()
	cfg.BaseURL = srv.URL
	e, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// The contract holds over real HTTP when the server's vectors come from
// Hashing; the server scales them and returns them in reverse order, so
// the client's normalising and index ordering are exercised too.
func TestOpenAIContract(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ConfigureEmbeddings(llmtest.EmbeddingsConfig{Embedder: hashing.New(256), Scale: 3, Reverse: true})
	e := newOpenAI(t, srv, openai.Config{APIKey: "sk-test", Model: "local-embedder", Dims: 256, BatchSize: 50})
	embedtest.Run(t, e)
	if len(srv.EmbeddingRequests()) == 0 {
		t.Fatal("no request reached the server")
	}
}

func TestOpenAIRequests(t *testing.T) {
	srv := llmtest.NewServer(t)
	e := newOpenAI(t, srv, openai.Config{APIKey: "sk-test", Model: "text-embedding-3-small", Dims: 256, BatchSize: 2})
	texts := []string{"first text", "", "second text", "third text"}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if e.Model() != "openai:text-embedding-3-small:256" || e.Dims() != 256 {
		t.Fatalf("Model %q Dims %d", e.Model(), e.Dims())
	}
	reqs := srv.EmbeddingRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 batches", len(reqs))
	}
	wantInputs := [][]string{{"first text", "second text"}, {"third text"}}
	for i, r := range reqs {
		if r.Model != "text-embedding-3-small" || r.Dimensions != 256 {
			t.Errorf("request %d: model %q dimensions %d", i, r.Model, r.Dimensions)
		}
		if got := r.Header.Get("Authorization"); got != "Bearer sk-test" {
			t.Errorf("request %d: Authorization %q", i, got)
		}
		if !slices.Equal(r.Input, wantInputs[i]) {
			t.Errorf("request %d: inputs %q, want %q (blank text must not be sent)", i, r.Input, wantInputs[i])
		}
	}
	h := hashing.New(256)
	for i, text := range texts {
		if !slices.Equal(vecs[i], h.Vector(text)) {
			t.Errorf("vector %d is not the server's vector for %q", i, text)
		}
	}
}

func TestOpenAIOmitsDimensionsForOtherModels(t *testing.T) {
	srv := llmtest.NewServer(t)
	e := newOpenAI(t, srv, openai.Config{Model: "nomic-embed-text", Dims: 256})
	if _, err := e.Embed(context.Background(), []string{"x y"}); err != nil {
		t.Fatal(err)
	}
	r := srv.EmbeddingRequests()[0]
	if r.Dimensions != 0 || r.Header.Get("Authorization") != "" {
		t.Fatalf("dimensions %d, Authorization %q: want neither", r.Dimensions, r.Header.Get("Authorization"))
	}
}

func TestOpenAIErrors(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
		cfg   openai.Config
		cause error
	}{
		{"server error", llmtest.Status(http.StatusInternalServerError, "boom"), openai.Config{Dims: 256}, nil},
		{"garbage", llmtest.Garbage(), openai.Config{Dims: 256}, nil},
		{"wrong dims", llmtest.Reply{}, openai.Config{Dims: 512, Model: "m"}, nil},
		{"timeout", llmtest.Reply{Delay: time.Minute}, openai.Config{Dims: 256, Timeout: 20 * time.Millisecond}, context.DeadlineExceeded},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.EnqueueEmbeddings(tc.reply)
			if tc.cfg.Model == "" {
				tc.cfg.Model = "m"
			}
			e := newOpenAI(t, srv, tc.cfg)
			_, err := e.Embed(context.Background(), []string{"some text"})
			if !errors.Is(err, embedding.ErrEmbed) {
				t.Fatalf("err %v, want ErrEmbed", err)
			}
			if tc.cause != nil && !errors.Is(err, tc.cause) {
				t.Fatalf("err %v, want cause %v", err, tc.cause)
			}
		})
	}
}

func TestOpenAIConfigValidate(t *testing.T) {
	if err := (openai.Config{}).Validate(); err != nil {
		t.Fatalf("defaults must validate: %v", err)
	}
	err := openai.Config{BaseURL: "ftp://x", Model: "custom", BatchSize: 5000, Timeout: -1}.Validate()
	if !errors.Is(err, embedding.ErrConfig) {
		t.Fatalf("err %v, want ErrConfig", err)
	}
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) || len(joined.Unwrap()) != 4 {
		t.Fatalf("want 4 joined problems (URL, dims, batch, timeout), got %v", err)
	}
	if _, err := openai.New(openai.Config{Model: "custom"}); !errors.Is(err, embedding.ErrConfig) {
		t.Fatalf("NewOpenAI without dims for an unknown model: %v", err)
	}
}
