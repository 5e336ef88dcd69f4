package resources_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cmem/cmem/resources"
)

func TestBuildKinds(t *testing.T) {
	tests := []struct {
		name, kind, config string
		wantErr            error
		wantMsg            string
	}{
		{name: "computation", kind: "computation"},
		{name: "computation null config", kind: "computation", config: "null"},
		{name: "computation empty object", kind: "computation", config: "{}"},
		{name: "knowledge base", kind: "knowledge_base", config: `{"documents":[{"id":"a","text":"alpha"}]}`},
		{name: "http", kind: "http", config: `{"url":"https://example.com/search"}`},
		{name: "forecast_model is not faked", kind: "forecast_model", wantErr: resources.ErrUnsupported, wantMsg: `kind "http"`},
		{name: "comparator is not faked", kind: "comparator", wantErr: resources.ErrUnsupported, wantMsg: `kind "http"`},
		{name: "unknown kind", kind: "oracle", wantErr: resources.ErrUnsupported, wantMsg: "supported: knowledge_base"},
		{name: "unknown field", kind: "computation", config: `{"precision":3}`, wantErr: resources.ErrConfig, wantMsg: `unknown field "precision"`},
		{name: "config not an object", kind: "computation", config: `[1]`, wantErr: resources.ErrConfig, wantMsg: "JSON object"},
		{name: "trailing data", kind: "computation", config: `{} {}`, wantErr: resources.ErrConfig, wantMsg: "after the object"},
		{name: "mistyped field", kind: "http", config: `{"url":"https://x","timeout_ms":"fast"}`, wantErr: resources.ErrConfig, wantMsg: `"timeout_ms"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, err := resources.Build("r1", tt.kind, "a resource", json.RawMessage(tt.config), resources.Options{})
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("Build: %v", err)
				}
				if tool.ID() != "r1" || tool.Description() != "a resource" {
					t.Fatalf("ID, Description = %q, %q", tool.ID(), tool.Description())
				}
				var schema map[string]any
				if err := json.Unmarshal(tool.Parameters(), &schema); err != nil || schema["type"] != "object" {
					t.Fatalf("Parameters = %s (%v), want an object schema", tool.Parameters(), err)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Build error = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("Build error %q does not mention %q", err, tt.wantMsg)
			}
		})
	}
}

func TestBuildRefusesBadOptionsAndID(t *testing.T) {
	_, err := resources.Build("r1", "computation", "", nil, resources.Options{MaxDocuments: -1, SnippetChars: -2})
	if !errors.Is(err, resources.ErrConfig) || !strings.Contains(err.Error(), "MaxDocuments") || !strings.Contains(err.Error(), "SnippetChars") {
		t.Fatalf("Build with negative limits = %v, want ErrConfig naming both", err)
	}
	if _, err := resources.Build("", "computation", "", nil, resources.Options{}); !errors.Is(err, resources.ErrConfig) {
		t.Fatalf("Build with empty id = %v, want ErrConfig", err)
	}
}

func TestParametersIsACopy(t *testing.T) {
	tool := mustBuild(t, "computation", "")
	p := tool.Parameters()
	for i := range p {
		p[i] = ' '
	}
	if !json.Valid(tool.Parameters()) {
		t.Fatal("changing the returned Parameters changed the tool's schema")
	}
}

func TestCallHonoursCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := []struct {
		tool resources.Tool
		args string
	}{
		{mustBuild(t, "computation", ""), `{"expression":"1"}`},
		{mustBuild(t, "knowledge_base", `{"documents":[{"id":"a","text":"alpha"}]}`), `{"query":"alpha"}`},
		{mustBuild(t, "http", `{"url":"http://127.0.0.1:1/never"}`), `{"query":"alpha"}`},
	}
	for _, c := range calls {
		if _, err := c.tool.Call(ctx, json.RawMessage(c.args)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Call with a cancelled context = %v, want context.Canceled", c.tool.ID(), err)
		}
	}
}

func mustBuild(t testing.TB, kind, config string) resources.Tool {
	t.Helper()
	return mustBuildOpts(t, kind, config, resources.Options{})
}

func mustBuildOpts(t testing.TB, kind, config string, opts resources.Options) resources.Tool {
	t.Helper()
	tool, err := resources.Build(kind+"-tool", kind, "test "+kind, json.RawMessage(config), opts)
	if err != nil {
		t.Fatalf("Build %s: %v", kind, err)
	}
	return tool
}
