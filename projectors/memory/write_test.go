package memory_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/memory"
)

// fakeLLM is a hand-written provider for the policy tests: Extract and
// Transform are scripted, the pipeline methods are not used here.
type fakeLLM struct {
	llm.Provider
	extracted []llm.KeyValue
	err       error
	lastReq   llm.ExtractRequest
}

func (f *fakeLLM) Name() string { return "fake" }

func (f *fakeLLM) Extract(_ context.Context, req llm.ExtractRequest) ([]llm.KeyValue, error) {
	f.lastReq = req
	return f.extracted, f.err
}

func (f *fakeLLM) Transform(_ context.Context, mode, text string) (string, error) {
	return strings.ToUpper(mode) + ":" + text, f.err
}

func TestApplyWriteKinds(t *testing.T) {
	ctx := context.Background()
	d := memory.Draft{Key: "contact for bob", Value: "mail bob at bob@example.com or +33 6 12 34 56 78"}
	env := memory.WriteEnv{Users: []string{"bob"}, LLM: &fakeLLM{}}

	out, tr, err := memory.ApplyWrite(ctx, memory.Policy{Kind: "simple"}, "private", d, env)
	if err != nil || len(out) != 1 || out[0] != d || tr.Transformed {
		t.Fatalf("simple: %v %+v %+v", err, out, tr)
	}

	out, tr, err = memory.ApplyWrite(ctx, memory.Policy{Kind: "redact"}, "shared", d, env)
	if err != nil || len(out) != 1 {
		t.Fatalf("redact: %v %+v", err, out)
	}
	if strings.Contains(out[0].Value, "bob@example.com") || strings.Contains(out[0].Value, "12 34") || strings.Contains(out[0].Key, "bob") {
		t.Fatalf("redact left sensitive text: %+v", out[0])
	}
	if !tr.Transformed || len(tr.Notes) == 0 {
		t.Fatalf("redact trace must say what it did: %+v", tr)
	}
	out, _, _ = memory.ApplyWrite(ctx, memory.Policy{Kind: "redact", Config: json.RawMessage(`{"emails":false,"user_names":false}`)}, "shared", d, env)
	if !strings.Contains(out[0].Value, "bob@example.com") || strings.Contains(out[0].Value, "12 34") {
		t.Fatalf("redact config ignored: %+v", out[0])
	}

	block := memory.Policy{Kind: "block", Config: json.RawMessage(`{"patterns":["(?i)password","@example\\.com"]}`)}
	if _, tr, err = memory.ApplyWrite(ctx, block, "shared", d, env); !errors.Is(err, memory.ErrBlocked) || len(tr.Notes) == 0 {
		t.Fatalf("block: %v %+v", err, tr)
	}
	if out, _, err = memory.ApplyWrite(ctx, block, "shared", memory.Draft{Key: "k", Value: "harmless"}, env); err != nil || len(out) != 1 {
		t.Fatalf("block passed a harmless write? %v", err)
	}

	f := &fakeLLM{extracted: []llm.KeyValue{{Key: " Lyon food ", Value: "bouchons"}, {Key: "", Value: "dropped"}, {Key: "wine", Value: "Beaujolais"}}}
	out, tr, err = memory.ApplyWrite(ctx, memory.Policy{Kind: "llm", Config: json.RawMessage(`{"prompt":"P"}`)}, "shared", d, memory.WriteEnv{LLM: f, Users: []string{"bob"}})
	if err != nil || len(out) != 2 || out[0].Key != "Lyon food" || !tr.Transformed {
		t.Fatalf("llm: %v %+v %+v", err, out, tr)
	}
	if f.lastReq.Tier != "shared" || f.lastReq.Prompt != "P" || f.lastReq.Users[0] != "bob" {
		t.Fatalf("llm request: %+v", f.lastReq)
	}
	if _, _, err = memory.ApplyWrite(ctx, memory.Policy{Kind: "llm"}, "shared", d, memory.WriteEnv{LLM: &fakeLLM{}}); !errors.Is(err, memory.ErrBlocked) {
		t.Fatalf("llm extracting nothing must refuse the write: %v", err)
	}
	boom := errors.New("boom")
	if _, _, err = memory.ApplyWrite(ctx, memory.Policy{Kind: "llm"}, "shared", d, memory.WriteEnv{LLM: &fakeLLM{err: boom}}); !errors.Is(err, boom) {
		t.Fatalf("provider error lost: %v", err)
	}
}

func TestApplyRead(t *testing.T) {
	ctx := context.Background()
	items := []memory.Surfaced{{ID: "1", Key: "Lyon food", Value: "bouchons"}, {ID: "2", Key: "Paris", Value: "museums"}, {ID: "3", Key: "lyon wine", Value: "Beaujolais"}}
	out, _, err := memory.ApplyRead(ctx, memory.Policy{Kind: "simple"}, items, &fakeLLM{})
	if err != nil || len(out) != 3 {
		t.Fatalf("simple: %v %v", err, out)
	}
	out, _, _ = memory.ApplyRead(ctx, memory.Policy{Kind: "filter", Config: json.RawMessage(`{"keywords":["LYON"]}`)}, items, &fakeLLM{})
	if len(out) != 2 || out[0].ID != "1" || out[1].ID != "3" {
		t.Fatalf("keyword filter: %+v", out)
	}
	out, _, _ = memory.ApplyRead(ctx, memory.Policy{Kind: "filter", Config: json.RawMessage(`{"keywords":["lyon","wine"],"match":"all"}`)}, items, &fakeLLM{})
	if len(out) != 1 || out[0].ID != "3" {
		t.Fatalf("match all: %+v", out)
	}
	out, _, _ = memory.ApplyRead(ctx, memory.Policy{Kind: "filter", Config: json.RawMessage(`{"limit":1}`)}, items, &fakeLLM{})
	if len(out) != 1 || out[0].ID != "1" {
		t.Fatalf("limit: %+v", out)
	}
	out, tr, _ := memory.ApplyRead(ctx, memory.Policy{Kind: "llm", Config: json.RawMessage(`{"transform":"redact","limit":2}`)}, items, &fakeLLM{})
	if len(out) != 2 || out[0].Value != "REDACT:bouchons" || !tr.Transformed {
		t.Fatalf("llm transform: %+v %+v", out, tr)
	}
	if items[0].Value != "bouchons" {
		t.Fatal("ApplyRead must not modify its input")
	}
}
