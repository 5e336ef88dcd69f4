package e2e_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// With Weaviate as the vector view and ClickHouse as the audit trail, no
// marker of alice's content is in the JetStream files, the Weaviate data
// directory or the ClickHouse data, before or after her erasure, while
// ids (which are in clear) are found there: the byte search works. After
// the erasure Weaviate no longer serves her fragment, bob's is intact, and
// the ClickHouse audit still names who read her fragment.
func TestErasureLeavesNoContentInTheStores(t *testing.T) {
	w := weaviatetest.Shared(t)
	if w.DataDir() == "" {
		t.Skip("CMEM_TEST_WEAVIATE_URL names an external Weaviate: its files are not here to search")
	}
	ch := clickhousetest.Shared(t)
	dir := t.TempDir()
	n := nodetest.Start(t, func(c *node.Config) {
		c.DataDir = dir
		c.WeaviateURL, c.WeaviateGRPC, c.WeaviateClass = w.URL, w.GRPCAddr, weaviatetest.Class(t)
		c.Audit = clickhouse.Config{DSN: ch.DSN(clickhousetest.Database("erasure"))}
	})
	world := newErasureWorld(t, n)
	c := world.c
	waitAudit := func() {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
		defer cancel()
		head, err := n.Log.Head(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		for n.Audit.Projector.Revision() < head {
			select {
			case <-ctx.Done():
				t.Fatalf("the ClickHouse projector did not reach revision %d", head)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	search := func(when string) {
		t.Helper()
		waitAudit()
		for name, d := range map[string]string{"jetstream": dir, "weaviate": w.DataDir(), "clickhouse": ch.Dir()} {
			for _, m := range []string{aliceMarker, bobMarker} {
				if hits := filesContaining(t, d, []byte(m)); len(hits) > 0 {
					t.Errorf("%s: marker %s in %s files %v", when, m, name, hits)
				}
			}
		}
	}
	search("before erasure")
	// The search can see what is in clear: the fragment id is in every store.
	for name, d := range map[string]string{"jetstream": dir, "weaviate": w.DataDir(), "clickhouse": ch.Dir()} {
		if len(filesContaining(t, d, []byte(world.aliceFrag))) == 0 {
			t.Errorf("fragment id %s not found in the %s files: the byte search cannot be trusted", world.aliceFrag, name)
		}
	}
	if ids := viewIDs(c, world.bob); !slices.Contains(ids, world.aliceFrag) {
		t.Fatalf("Weaviate does not serve alice's fragment before erasure: %v", ids)
	}

	c.Must(http.StatusOK, "DELETE", "/v1/users/alice", nodetest.AdminToken, nil)
	search("after erasure")
	if ids := viewIDs(c, world.bob); slices.Contains(ids, world.aliceFrag) || !slices.Contains(ids, world.bobFrag) {
		t.Errorf("Weaviate view after erasure = %v", ids)
	}
	r := c.Must(http.StatusOK, "GET", "/v1/audit/reads?fragment="+world.aliceFrag, nodetest.AdminToken, nil)
	if !strings.Contains(string(r.Raw), `"user":"bob"`) {
		t.Errorf("the ClickHouse audit forgot that bob read alice's fragment: %s", r.Raw)
	}
}
