package clustertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

var httpClient = &http.Client{Timeout: 90 * time.Second} // above the gateway's 60 s query wait

// Call sends a JSON request and decodes a JSON object answer. A transport
// error (a killed gateway) is returned, not fatal: faults make them normal.
func Call(method, url, token string, body any) (int, map[string]any, error) {
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
	resp, err := httpClient.Do(req)
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
