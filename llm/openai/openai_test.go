package openai_test

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/llmtest"
	"github.com/cmem/cmem/llm/openai"
)

func newOpenAI(t *testing.T, srv *llmtest.Server, cfg openai.Config) *openai.Provider {
	t.Helper()
	cfg.BaseURL = srv.URL
	cfg.APIKey = cmp.Or(cfg.APIKey, "sk-test")
	cfg.Model = cmp.Or(cfg.Model, "test-model")
	cfg.Logger = cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler))
	cfg.MaxRetries = cmp.Or(cfg.MaxRetries, -1)
	p, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenAIContract(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.HandleChat(llmtest.Mimic())
	llmtest.RunProviderContract(t, newOpenAI(t, srv, openai.Config{}))
	if len(srv.ChatRequests()) == 0 {
		t.Fatal("the contract never reached the server")
	}
}

func TestOpenAICoordinateRequest(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.EnqueueChat(llmtest.JSON(map[string]string{"agent": "sports_agent", "subquery": "Who won?"}))
	p := newOpenAI(t, srv, openai.Config{Temperature: 0.3})
	offered := llmtest.NewsAgents[1:3] // business, sports
	d, err := p.Coordinate(context.Background(), llm.CoordinateRequest{
		Query: "Who won the cup final?", Agents: offered, Round: 2, MaxRounds: 4,
		Turns:   []llm.Turn{{Agent: "business_agent", Subquery: "sponsors?", Response: "Sponsors paid 2M."}},
		History: []llm.HistoryItem{{Query: "Earlier question", Answer: "Earlier answer"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if d != (llm.Decision{Agent: "sports_agent", Subquery: "Who won?"}) {
		t.Fatalf("decision %+v", d)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Model != "test-model" || r.Temperature != 0.3 || r.Header.Get("Authorization") != "Bearer sk-test" {
		t.Fatalf("model %q temperature %v auth %q", r.Model, r.Temperature, r.Header.Get("Authorization"))
	}
	if r.ResponseFormat == nil || r.ResponseFormat.Type != goopenai.ChatCompletionResponseFormatTypeJSONObject {
		t.Fatalf("response_format %+v, want json_object", r.ResponseFormat)
	}
	if len(r.Messages) != 2 || r.Messages[0].Role != "system" || r.Messages[0].Content != llm.DefaultPrompts().Coordinator {
		t.Fatalf("system message %+v, want the paper's coordinator prompt", r.Messages[0])
	}
	msg := r.Messages[1].Content
	var listed []string
	for _, line := range strings.Split(msg, "\n") {
		if strings.HasPrefix(line, "- ") {
			listed = append(listed, line)
		}
	}
	want := []string{"- business_agent: " + offered[0].Description, "- sports_agent: " + offered[1].Description}
	if strings.Join(listed, "\n") != strings.Join(want, "\n") {
		t.Fatalf("agents listed:\n%s\nwant exactly:\n%s", strings.Join(listed, "\n"), strings.Join(want, "\n"))
	}
	for _, s := range []string{"Who won the cup final?", "Sponsors paid 2M.", "Earlier question", "Round 2 of at most 4", `{"stop": true}`} {
		if !strings.Contains(msg, s) {
			t.Errorf("user message lacks %q:\n%s", s, msg)
		}
	}
	for _, a := range llmtest.NewsAgents {
		if a.ID != "business_agent" && a.ID != "sports_agent" && strings.Contains(msg, a.ID) {
			t.Errorf("user message names %s, which was not offered", a.ID)
		}
	}
}

func TestOpenAICoordinateReplies(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
		want  llm.Decision
		err   error
	}{
		{"stop", llmtest.JSON(map[string]bool{"stop": true}), llm.Decision{Stop: true}, nil},
		{"COMPLETE", llmtest.Text("COMPLETE"), llm.Decision{Stop: true}, nil},
		{"fenced JSON, blank subquery", llmtest.Text("```json\n{\"agent\": \"sports_agent\"}\n```"),
			llm.Decision{Agent: "sports_agent", Subquery: "Who won the cup?"}, nil},
		{"agent not offered", llmtest.JSON(map[string]string{"agent": "health_agent", "subquery": "x"}), llm.Decision{}, llm.ErrNotOffered},
		{"neither agent nor stop", llmtest.JSON(map[string]string{"subquery": "x"}), llm.Decision{}, llm.ErrNotOffered},
		{"not JSON", llmtest.Text("I think the sports agent"), llm.Decision{}, llm.ErrProvider},
		{"garbage body", llmtest.Garbage(), llm.Decision{}, llm.ErrProvider},
		{"no choices", llmtest.Reply{Body: `{"id":"x","choices":[]}`}, llm.Decision{}, llm.ErrProvider},
		{"server error", llmtest.Status(http.StatusInternalServerError, "boom"), llm.Decision{}, llm.ErrProvider},
		{"bad request", llmtest.Status(http.StatusBadRequest, "bad"), llm.Decision{}, llm.ErrProvider},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.EnqueueChat(tc.reply)
			p := newOpenAI(t, srv, openai.Config{})
			d, err := p.Coordinate(context.Background(), llm.CoordinateRequest{Query: "Who won the cup?", Agents: llmtest.NewsAgents[1:3], Round: 1})
			if tc.err != nil {
				if !errors.Is(err, tc.err) || !errors.Is(err, llm.ErrProvider) {
					t.Fatalf("err %v, want %v wrapped with ErrProvider", err, tc.err)
				}
				return
			}
			if err != nil || d != tc.want {
				t.Fatalf("decision %+v %v, want %+v", d, err, tc.want)
			}
		})
	}
}

func TestOpenAITimeoutAndRetries(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		srv.EnqueueChat(llmtest.Reply{Delay: time.Minute, Content: "late"})
		p := newOpenAI(t, srv, openai.Config{Timeout: 30 * time.Millisecond})
		_, err := p.Aggregate(context.Background(), llm.AggregateRequest{Turns: []llm.Turn{{Response: "r"}}})
		if !errors.Is(err, llm.ErrProvider) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err %v, want ErrProvider and DeadlineExceeded", err)
		}
	})
	t.Run("retries 5xx and 429, then succeeds", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		srv.EnqueueChat(llmtest.Status(http.StatusBadGateway, "x"), llmtest.Status(http.StatusTooManyRequests, "slow"), llmtest.Text("merged"))
		p := newOpenAI(t, srv, openai.Config{MaxRetries: 2, RetryBackoff: time.Millisecond})
		out, err := p.Aggregate(context.Background(), llm.AggregateRequest{Turns: []llm.Turn{{Response: "r"}}})
		if err != nil || out != "merged" || len(srv.ChatRequests()) != 3 {
			t.Fatalf("%q %v after %d requests", out, err, len(srv.ChatRequests()))
		}
	})
	t.Run("does not retry 4xx", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		srv.EnqueueChat(llmtest.Status(http.StatusUnauthorized, "no key"))
		p := newOpenAI(t, srv, openai.Config{MaxRetries: 3, RetryBackoff: time.Millisecond})
		_, err := p.Aggregate(context.Background(), llm.AggregateRequest{Turns: []llm.Turn{{Response: "r"}}})
		if !errors.Is(err, llm.ErrProvider) || len(srv.ChatRequests()) != 1 {
			t.Fatalf("err %v after %d requests, want one request", err, len(srv.ChatRequests()))
		}
	})
}

func TestOpenAIExtractAndTransform(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.EnqueueChat(
		llmtest.JSON(map[string]any{"fragments": []map[string]string{
			{"key": "Launch plan", "value": "dana_r launches in May; mail dana@corp.example."},
			{"key": " ", "value": "dropped: blank key"},
		}}),
		llmtest.Text("Dana wrote from dana@corp.example."),
	)
	p := newOpenAI(t, srv, openai.Config{Names: func() []string { return []string{"Dana"} }})
	kvs, err := p.Extract(context.Background(), llm.ExtractRequest{
		Tier: llm.TierShared, Query: "plan?", Response: "dana_r launches in May.", Users: []string{"dana_r"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(kvs) != 1 || kvs[0] != (llm.KeyValue{Key: "Launch plan", Value: "[USER] launches in May; mail [EMAIL]."}) {
		t.Fatalf("fragments %+v", kvs)
	}
	out, err := p.Transform(context.Background(), llm.ModeAnonymize, "Dana wrote from dana@corp.example.")
	if err != nil || out != "[USER] wrote from [EMAIL]." {
		t.Fatalf("anonymize %q %v: the rule pass must catch what the model left", out, err)
	}
	reqs := srv.ChatRequests()
	if reqs[0].Messages[0].Content != llm.DefaultPrompts().WriteShared || !strings.Contains(reqs[0].Messages[1].Content, "dana_r") {
		t.Fatalf("extract request %+v", reqs[0].Messages)
	}
	if reqs[1].Messages[0].Content != llm.DefaultPrompts().Anonymize {
		t.Fatalf("transform system prompt %q", reqs[1].Messages[0].Content)
	}
}

func TestOpenAIConfigValidate(t *testing.T) {
	if err := (openai.Config{}).Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	err := openai.Config{BaseURL: "localhost:8000", Temperature: 3, Timeout: -1}.Validate()
	var joined interface{ Unwrap() []error }
	if !errors.Is(err, llm.ErrConfig) || !errors.As(err, &joined) || len(joined.Unwrap()) != 3 {
		t.Fatalf("err %v, want 3 joined ErrConfig", err)
	}
}
