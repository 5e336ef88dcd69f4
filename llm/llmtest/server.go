package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/hashing"
)

// Reply is one scripted answer of the server.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Body, when set, is sent verbatim instead of a completion: garbage,
	// an error object, a reply without choices.
	Body string
	// Delay holds the answer back; a client that gives up first (its
	// context) ends the wait.
	Delay time.Duration
	// Content and ToolCalls make up the assistant message.
	Content   string
	ToolCalls []openai.ToolCall
}

// Text is a plain assistant answer.
func Text(content string) Reply { return Reply{Content: content} }

// JSON is an assistant answer whose content is v marshalled.
func JSON(v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest.JSON: %v", err))
	}
	return Reply{Content: string(b)}
}

// Calls is an assistant answer that calls tools.
func Calls(calls ...openai.ToolCall) Reply { return Reply{ToolCalls: calls} }

// Call is one function tool call; args is marshalled unless it is a
// string, which is sent as is (so malformed arguments can be scripted).
func Call(id, name string, args any) openai.ToolCall {
	s, ok := args.(string)
	if !ok {
		b, err := json.Marshal(args)
		if err != nil {
			panic(fmt.Sprintf("llmtest.Call: %v", err))
		}
		s = string(b)
	}
	return openai.ToolCall{ID: id, Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: name, Arguments: s}}
}

// Status is an OpenAI-style error reply with the given HTTP status.
func Status(code int, message string) Reply {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": "llmtest"}})
	return Reply{Status: code, Body: string(b)}
}

// Garbage is a 200 reply whose body is not JSON.
func Garbage() Reply { return Reply{Body: "<html>this is not JSON</html>"} }

// ChatRequest is a received chat completion request, decoded, with its
// headers.
type ChatRequest struct {
	openai.ChatCompletionRequest
	Header http.Header
}

// EmbeddingRequest is a received embeddings request.
type EmbeddingRequest struct {
	Model      string
	Input      []string
	Dimensions int
	Header     http.Header
}

// EmbeddingsConfig says how /v1/embeddings answers when no reply is
// queued.
type EmbeddingsConfig struct {
	// Embedder computes the vectors; nil = hashing.New(0).
	Embedder embedding.Embedder
	// Scale multiplies every vector (0 = 1), to check that clients
	// normalise.
	Scale float32
	// Reverse returns the data in reverse order (indexes stay right), to
	// check that clients order by index.
	Reverse bool
}

// Server is an OpenAI-compatible test endpoint. Chat replies come from the
// queue (EnqueueChat) first, then from the handler (HandleChat); a chat
// request with neither fails the test. Embedding replies come from their
// queue first, then from the configured embedder.
type Server struct {
	// URL is the base URL to configure clients with (it ends in /v1).
	URL string

	t   testing.TB
	srv *httptest.Server

	mu         sync.Mutex
	chatQueue  []Reply
	chatFunc   func(ChatRequest) Reply
	embedQueue []Reply
	embedCfg   EmbeddingsConfig
	chats      []ChatRequest
	embeds     []EmbeddingRequest
}

// NewServer starts a server that is closed when the test ends.
func NewServer(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t, embedCfg: EmbeddingsConfig{Embedder: hashing.New(0), Scale: 1}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.handleChat)
	mux.HandleFunc("POST /v1/embeddings", s.handleEmbeddings)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.srv.Close)
	return s
}

// EnqueueChat appends replies to the chat script.
func (s *Server) EnqueueChat(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chatQueue = append(s.chatQueue, replies...)
}

// HandleChat answers chat requests once the queue is empty.
func (s *Server) HandleChat(f func(ChatRequest) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chatFunc = f
}

// EnqueueEmbeddings appends replies (errors, delays) to the embeddings
// script; a queued Reply without Status, Body or Delay still answers with
// vectors.
func (s *Server) EnqueueEmbeddings(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.embedQueue = append(s.embedQueue, replies...)
}

// ConfigureEmbeddings sets how embeddings are computed.
func (s *Server) ConfigureEmbeddings(c EmbeddingsConfig) {
	if c.Embedder == nil {
		c.Embedder = hashing.New(0)
	}
	if c.Scale == 0 {
		c.Scale = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.embedCfg = c
}

// ChatRequests returns the chat requests received so far, in order.
func (s *Server) ChatRequests() []ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ChatRequest(nil), s.chats...)
}

// EmbeddingRequests returns the embeddings requests received so far.
func (s *Server) EmbeddingRequests() []EmbeddingRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]EmbeddingRequest(nil), s.embeds...)
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	var req openai.ChatCompletionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		s.t.Errorf("llmtest: undecodable chat request: %v", err)
		writeReply(w, r, Status(http.StatusBadRequest, err.Error()), nil)
		return
	}
	cr := ChatRequest{ChatCompletionRequest: req, Header: r.Header.Clone()}
	s.mu.Lock()
	s.chats = append(s.chats, cr)
	var reply Reply
	scripted := true
	switch {
	case len(s.chatQueue) > 0:
		reply, s.chatQueue = s.chatQueue[0], s.chatQueue[1:]
	case s.chatFunc != nil:
		f := s.chatFunc
		s.mu.Unlock()
		reply = f(cr)
		s.mu.Lock()
	default:
		scripted = false
	}
	s.mu.Unlock()
	if !scripted {
		s.t.Errorf("llmtest: unscripted chat request #%d", len(s.ChatRequests()))
		reply = Status(http.StatusInternalServerError, "llmtest: no scripted reply")
	}
	writeReply(w, r, reply, func() any {
		finish := openai.FinishReasonStop
		if len(reply.ToolCalls) > 0 {
			finish = openai.FinishReasonToolCalls
		}
		return openai.ChatCompletionResponse{
			ID: "chatcmpl-llmtest", Object: "chat.completion", Created: 1700000000, Model: req.Model,
			Choices: []openai.ChatCompletionChoice{{
				Message: openai.ChatCompletionMessage{
					Role: openai.ChatMessageRoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls,
				},
				FinishReason: finish,
			}},
		}
	})
}

func (s *Server) handleEmbeddings(w http.ResponseWriter, r *http.Request) {
	var raw struct {
		Model      string          `json:"model"`
		Input      json.RawMessage `json:"input"`
		Dimensions int             `json:"dimensions"`
	}
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		writeReply(w, r, Status(http.StatusBadRequest, err.Error()), nil)
		return
	}
	var inputs []string
	if err := json.Unmarshal(raw.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(raw.Input, &one); err != nil {
			writeReply(w, r, Status(http.StatusBadRequest, "input must be a string or strings"), nil)
			return
		}
		inputs = []string{one}
	}
	s.mu.Lock()
	s.embeds = append(s.embeds, EmbeddingRequest{Model: raw.Model, Input: inputs, Dimensions: raw.Dimensions, Header: r.Header.Clone()})
	var reply Reply
	if len(s.embedQueue) > 0 {
		reply, s.embedQueue = s.embedQueue[0], s.embedQueue[1:]
	}
	cfg := s.embedCfg
	s.mu.Unlock()
	writeReply(w, r, reply, func() any {
		vecs, err := cfg.Embedder.Embed(r.Context(), inputs)
		if err != nil {
			return nil
		}
		data := make([]openai.Embedding, len(vecs))
		for i, v := range vecs {
			for j := range v {
				v[j] *= cfg.Scale
			}
			data[i] = openai.Embedding{Object: "embedding", Embedding: v, Index: i}
		}
		if cfg.Reverse {
			for i, j := 0, len(data)-1; i < j; i, j = i+1, j-1 {
				data[i], data[j] = data[j], data[i]
			}
		}
		return openai.EmbeddingResponse{Object: "list", Data: data, Model: openai.EmbeddingModel(raw.Model)}
	})
}

// writeReply waits out the reply's delay, then writes its body, or the
// value body() builds.
func writeReply(w http.ResponseWriter, r *http.Request, reply Reply, body func() any) {
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.Header().Set("Content-Type", "application/json")
	if reply.Body != "" || body == nil {
		w.WriteHeader(status)
		_, _ = io.WriteString(w, reply.Body)
		return
	}
	v := body()
	if v == nil {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error":{"message":"llmtest: embedding failed"}}`)
		return
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
