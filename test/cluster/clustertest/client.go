package clustertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

var (
	httpClient = &http.Client{Timeout: 90 * time.Second} // above the gateway's 60 s query wait
	// pollClient serves the checks' polls, which ask a process to wait at
	// most a few seconds (?wait=5, a 5 s read wait): a process that hangs
	// costs one short timeout per poll, not 90 s, so every check's own
	// deadline holds.
	pollClient = &http.Client{Timeout: 20 * time.Second}
)

// Call sends a JSON request and decodes a JSON object answer. A transport
// error (a killed gateway) is returned, not fatal: faults make them normal.
func Call(method, url, token string, body any) (int, map[string]any, error) {
	return call(httpClient, method, url, token, body)
}

// Poll is a GET for the checks, with a 20 s timeout (see pollClient).
func Poll(url, token string) (int, map[string]any, error) {
	return call(pollClient, "GET", url, token, nil)
}

func call(client *http.Client, method, url, token string, body any) (int, map[string]any, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, err
	}
	var v any
	if len(raw) > 0 && json.Unmarshal(raw, &v) != nil {
		return resp.StatusCode, nil, fmt.Errorf("not JSON: %.200s", raw)
	}
	out, ok := v.(map[string]any)
	if !ok { // an array answer: kept under "items"
		out = map[string]any{"items": v}
	}
	return resp.StatusCode, out, nil
}

// Revision reads the "revision" field of an answer.
func Revision(body map[string]any) uint64 {
	f, _ := body["revision"].(float64)
	return uint64(f)
}
