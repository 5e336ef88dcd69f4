package e2e_test

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/cmem/cmem/gateway/openapitest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// TestMain validates every request and answer the end-to-end tests
// exchange with cmem over the default HTTP client against the OpenAPI
// document (openapitest): a shape that drifts from the document fails the
// run.
func TestMain(m *testing.M) {
	checker, err := openapitest.New(http.DefaultTransport)
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
	http.DefaultClient.Transport = checker
	code := m.Run()
	weaviatetest.StopShared()
	if problems := checker.Report(false); len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the traffic of the end-to-end tests does not conform to gateway/openapi.json:\n  %s\n", strings.Join(problems, "\n  "))
		code = 1
	}
	os.Exit(code)
}
