package gateway

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
)

// TestInternalErrorLogsItsCorrelationID: a 500 tells the caller to look up
// its correlation id in the server log, so the log line must carry it.
func TestInternalErrorLogsItsCorrelationID(t *testing.T) {
	var logs bytes.Buffer
	s := &Server{logger: slog.New(slog.NewTextHandler(&logs, nil))}
	r := httptest.NewRequest(http.MethodGet, "/v1/x", nil)
	r = r.WithContext(app.WithCorrelationID(r.Context(), "corr-42"))
	w := httptest.NewRecorder()
	s.fail(w, r, errors.New("disk on fire"))
	if w.Code != 500 || !strings.Contains(w.Body.String(), "corr-42") {
		t.Fatalf("answer %d %s", w.Code, w.Body)
	}
	if !strings.Contains(logs.String(), "correlation_id=corr-42") || !strings.Contains(logs.String(), "disk on fire") {
		t.Fatalf("the log line does not carry the correlation id and the cause: %s", logs.String())
	}
	logs.Reset()
	s.logRequest(r, "GET /v1/x", 500, 0)
	if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "correlation_id=corr-42") {
		t.Fatalf("request log: %s", logs.String())
	}
}
