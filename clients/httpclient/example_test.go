package httpclient_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/node"
)

// Example runs a real cmem in this process (embedded NATS, data in a
// temporary directory) and uses it as a Go program would: the admin
// registers a user and an agent and lets the user use the agent; the user
// writes a fragment through the agent and reads it back in a memory view.
// A write through an agent the user may not use is refused, and the
// refusal is errors.Is ErrForbidden.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base, stop := startCmem(ctx)
	defer stop()

	admin, err := httpclient.New(httpclient.Config{BaseURL: base, Token: adminToken})
	check(err)
	alice, err := admin.RegisterUser(ctx, "alice", "user")
	check(err)
	// Calls without a typed shortcut go through Do.
	for _, agent := range []string{"planner", "critic"} {
		_, err = admin.Do(ctx, http.MethodPost, "/v1/agents", map[string]string{"id": agent, "description": "an agent"}, nil)
		check(err)
	}
	_, err = admin.Do(ctx, http.MethodPut, "/v1/grants/user-agent/alice/planner", nil, nil)
	check(err)

	asAlice, err := httpclient.New(httpclient.Config{BaseURL: base, Token: alice.Token})
	check(err)
	w, err := asAlice.WriteFragment(ctx, httpclient.Write{Agent: "planner", Key: "lyon", Value: "bouchons are small restaurants"})
	check(err)
	// MinRevision: the view includes the write just made.
	v, err := asAlice.MemoryView(ctx, httpclient.ViewRequest{Agent: "planner", Query: "lyon", MinRevision: w.Revision})
	check(err)
	for _, f := range v.Private {
		fmt.Printf("%s fragment %s: %s\n", f.Tier, f.Key, f.Value)
	}

	_, err = asAlice.WriteFragment(ctx, httpclient.Write{Agent: "critic", Key: "k", Value: "v"})
	fmt.Println("through critic:", errors.Is(err, domain.ErrForbidden))
	// Output:
	// private fragment lyon: bouchons are small restaurants
	// through critic: true
}

// ExampleError shows how an error answer of cmem reads: a refusal by a
// write policy is a 403 that errors.Is both ErrPolicyRefused and
// ErrForbidden.
func ExampleError() {
	body := []byte(`{"error":"refused by policy: the value matches a blocked pattern","code":"refused_by_policy"}`)
	var err error = httpclient.NewError(http.StatusForbidden, body)
	fmt.Println(err)
	fmt.Println(errors.Is(err, domain.ErrPolicyRefused), errors.Is(err, domain.ErrForbidden), errors.Is(err, domain.ErrNotFound))
	// Output:
	// refused by policy: the value matches a blocked pattern (403 refused_by_policy)
	// true true false
}

const adminToken = "example-admin-token-0123456789"

// startCmem starts a node on free ports with its data in a temporary
// directory and returns its API's base URL and how to stop it.
func startCmem(ctx context.Context) (string, func()) {
	dir, err := os.MkdirTemp("", "cmem-example-")
	check(err)
	n, err := node.Start(ctx, node.Config{DataDir: dir, HTTPAddr: "127.0.0.1:0", NATSPort: -1, AdminToken: adminToken},
		slog.New(slog.DiscardHandler))
	check(err)
	return "http://" + n.Addr(), func() { n.Close(); _ = os.RemoveAll(dir) }
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
