package node_test

import (
	"net/http"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

func TestQuerySmoke(t *testing.T) {
	n := nodetest.Start(t, nil)
	c := nodetest.NewClient(t, n)
	const admin = nodetest.AdminToken
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "travel", "description": "travel destinations, cities, food and restaurants"})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "guide", "kind": "knowledge_base", "description": "city guide about food and restaurants",
		"documents": []map[string]string{{"id": "lyon", "text": "Lyon is famous for its bouchons, traditional restaurants serving local food."}, {"id": "rome", "text": "Rome has ancient ruins."}}})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/travel", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/agent-resource/travel/guide", admin, nil)
	r := c.Must(http.StatusOK, "POST", "/v1/queries", alice, map[string]any{"text": "What food restaurants is Lyon famous for?"})
	t.Logf("%s", r.Raw)
}
