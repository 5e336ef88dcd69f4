package openai_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/llmtest"
	"github.com/cmem/cmem/llm/openai"
)

func TestOpenAISameFact(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.EnqueueChat(llmtest.JSON(map[string]string{"decision": "UPDATE"}), llmtest.JSON(map[string]string{"decision": "add"}),
		llmtest.JSON(map[string]string{"decision": "MERGE"}))
	p := newOpenAI(t, srv, openai.Config{})
	judge, ok := llm.JudgeOf(llm.Traced{Next: p})
	if !ok {
		t.Fatal("the OpenAI provider, traced, is no FactJudge")
	}
	old, cand := llm.KeyValue{Key: "Lumen Q3 revenue", Value: "41 million"}, llm.KeyValue{Key: "third quarter revenue of Lumen", Value: "45 million"}
	ctx := context.Background()
	if same, err := judge.SameFact(ctx, old, cand); !same || err != nil {
		t.Errorf("UPDATE: %v %v", same, err)
	}
	if same, err := judge.SameFact(ctx, old, cand); same || err != nil {
		t.Errorf("add: %v %v", same, err)
	}
	if _, err := judge.SameFact(ctx, old, cand); !errors.Is(err, llm.ErrProvider) {
		t.Errorf("MERGE: %v, want ErrProvider", err)
	}
	if req := srv.ChatRequests()[0]; !strings.Contains(req.Messages[1].Content, "41 million") || !strings.Contains(req.Messages[1].Content, "third quarter") {
		t.Errorf("request %+v", req.Messages)
	}
}
