package scenario

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The LLM judge asks an OpenAI-compatible endpoint with the question, the
// ground truth and the answer, and reads its one-word verdict.
func TestLLMJudgeAsksTheModel(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, "unexpected "+r.URL.Path, http.StatusNotFound)
			return
		}
		var req struct {
			Model    string                     `json:"model"`
			Messages []struct{ Content string } `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		user := req.Messages[len(req.Messages)-1].Content
		got = append(got, req.Model+"|"+user)
		verdict := "INCORRECT"
		if strings.Contains(user, "System answer: it is 12345") {
			verdict = "CORRECT."
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"role": "assistant", "content": verdict}}}})
	}))
	defer srv.Close()
	t.Setenv("CMEM_OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "k")
	t.Setenv("CMEM_JUDGE_MODEL", "judge-1")
	j := newLLMJudge()
	if j == nil {
		t.Fatal("no judge with CMEM_OPENAI_BASE_URL set")
	}
	ok, err := j.judge(context.Background(), "What is x?", "12345", "it is 12345")
	if err != nil || !ok {
		t.Fatalf("right answer: %v, %v", ok, err)
	}
	ok, err = j.judge(context.Background(), "What is x?", "12345", "no idea")
	if err != nil || ok {
		t.Fatalf("wrong answer: %v, %v", ok, err)
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "judge-1|Question: What is x?\nGround truth: 12345") {
		t.Fatalf("requests: %q", got)
	}
}

func TestNoLLMJudgeOffline(t *testing.T) {
	t.Setenv("CMEM_OPENAI_BASE_URL", "")
	if newLLMJudge() != nil {
		t.Fatal("a judge without a model")
	}
}
