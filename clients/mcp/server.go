package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Version is the implementation version the server announces.
const Version = "1"

// NewServer returns an MCP server with cmem's tools (ask, memory_view,
// write_fragment, my_access) and resources (cmem://access and the template
// cmem://memory/{agent}), each calling cmem as cfg.Token's user.
func NewServer(cfg Config) (*sdk.Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	a, err := newAPI(cfg)
	if err != nil {
		return nil, err
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "cmem", Title: "Collaborative Memory", Version: Version},
		&sdk.ServerOptions{Instructions: "cmem is a permission-aware memory shared by users and agents. " +
			"Use ask for a question answered by cmem's agents, memory_view to read what an agent may recall for you, " +
			"write_fragment to remember something through an agent, my_access for the agents and resources you may use."})
	sdk.AddTool(s, &sdk.Tool{Name: "ask", Description: "Submit a question to cmem's agents and wait for the answer."}, a.ask)
	sdk.AddTool(s, &sdk.Tool{Name: "memory_view", Description: "Read the memory fragments an agent may recall for you, ranked by a query: your private ones and the shared ones your permissions admit."}, a.memoryView)
	sdk.AddTool(s, &sdk.Tool{Name: "write_fragment", Description: "Write a memory fragment through an agent you may use (private by default, or shared)."}, a.writeFragment)
	sdk.AddTool(s, &sdk.Tool{Name: "my_access", Description: "List the agents you may use now and the resources each may use."}, a.myAccess)
	s.AddResource(&sdk.Resource{URI: "cmem://access", Name: "access", Title: "My access",
		Description: "The agents you may use now and their resources.", MIMEType: "application/json"}, a.readAccess)
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: "cmem://memory/{agent}", Name: "memory",
		Title: "My fragments through an agent", Description: "Every fragment an agent may recall for you (no relevance floor).",
		MIMEType: "application/json"}, a.readMemory)
	return s, nil
}

// HTTPHandler serves s over MCP's streamable HTTP transport.
func HTTPHandler(s *sdk.Server) http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
}

// AskInput is the ask tool's arguments.
type AskInput struct {
	Text string `json:"text" jsonschema:"the question"`
}

func (a api) ask(ctx context.Context, _ *sdk.CallToolRequest, in AskInput) (*sdk.CallToolResult, any, error) {
	var ans map[string]any
	status, err := a.call(ctx, http.MethodPost, "/v1/queries", map[string]any{"text": in.Text}, &ans)
	deadline := time.Now().Add(a.cfg.QueryWait)
	for err == nil && status == http.StatusAccepted && time.Now().Before(deadline) {
		id, _ := ans["id"].(string)
		wait := strconv.Itoa(int(max(1, min(60, time.Until(deadline).Seconds()))))
		status, err = a.call(ctx, http.MethodGet, "/v1/queries/"+url.PathEscape(id)+"?wait="+wait, nil, &ans)
	}
	if err != nil {
		return nil, nil, err
	}
	return nil, ans, nil
}

// ViewInput is the memory_view tool's arguments.
type ViewInput struct {
	Agent  string `json:"agent" jsonschema:"the agent whose memory to read (one you may use)"`
	Query  string `json:"query" jsonschema:"text to rank fragments by"`
	KUser  *int   `json:"k_user,omitempty" jsonschema:"private fragments to return (default 10, max 100)"`
	KCross *int   `json:"k_cross,omitempty" jsonschema:"shared fragments to return (default 10, max 100)"`
}

func (a api) memoryView(ctx context.Context, _ *sdk.CallToolRequest, in ViewInput) (*sdk.CallToolResult, any, error) {
	var ans map[string]any
	_, err := a.call(ctx, http.MethodPost, "/v1/memory/view", struct {
		ViewInput
		MinRevision uint64 `json:"min_revision,omitempty"`
	}{in, a.seen.Load()}, &ans)
	return nil, ans, err
}

// WriteInput is the write_fragment tool's arguments.
type WriteInput struct {
	Agent       string   `json:"agent" jsonschema:"the agent writing (one you may use)"`
	Key         string   `json:"key" jsonschema:"a short key naming the fragment"`
	Value       string   `json:"value" jsonschema:"what to remember"`
	Tier        string   `json:"tier,omitempty" jsonschema:"private (default) or shared"`
	Resources   []string `json:"resources,omitempty" jsonschema:"resources the fragment derives from (the agent must be allowed them)"`
	DerivedFrom []string `json:"derived_from,omitempty" jsonschema:"ids of fragments it derives from"`
}

func (a api) writeFragment(ctx context.Context, _ *sdk.CallToolRequest, in WriteInput) (*sdk.CallToolResult, any, error) {
	if in.Tier == "" {
		in.Tier = "private"
	}
	if in.Resources == nil {
		in.Resources = []string{}
	}
	var ans map[string]any
	if _, err := a.call(ctx, http.MethodPost, "/v1/fragments", in, &ans); err != nil {
		return nil, nil, err
	}
	if rev, ok := ans["revision"].(float64); ok {
		a.saw(uint64(rev))
	}
	return nil, ans, nil
}

func (a api) myAccess(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
	ans, err := a.access(ctx)
	return nil, ans, err
}

func (a api) access(ctx context.Context) (map[string]any, error) {
	if a.cfg.User == "" {
		return nil, errors.New("my_access needs the user's id: set CMEM_USER (or -user)")
	}
	var ans map[string]any
	_, err := a.call(ctx, http.MethodGet, "/v1/access/"+url.PathEscape(a.cfg.User), nil, &ans)
	return ans, err
}

func (a api) readAccess(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	ans, err := a.access(ctx)
	if err != nil {
		return nil, readError(req.Params.URI, err)
	}
	return jsonResource(req.Params.URI, ans)
}

func (a api) readMemory(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	agent, ok := strings.CutPrefix(req.Params.URI, "cmem://memory/")
	if !ok || agent == "" || strings.Contains(agent, "/") {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	var ans map[string]any
	if _, err := a.call(ctx, http.MethodPost, "/v1/memory/view", map[string]any{"agent": agent, "query": agent, "min_score": -1, "min_revision": a.seen.Load()}, &ans); err != nil {
		return nil, readError(req.Params.URI, err)
	}
	return jsonResource(req.Params.URI, ans)
}
