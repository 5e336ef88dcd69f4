package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
)

// batchCmd runs `cmem batch FILE.jsonl`: one command a line (the items of
// POST /v1/batch), sent -size at a time; each chunk is stored all or
// nothing. It prints each item's result as a line of JSON (a registered
// user's token is only there).
func batchCmd(args []string, out io.Writer) error {
	c := newCall("batch", "batch FILE.jsonl|- [-size N]  (one item a line, e.g. {\"op\":\"grant\",\"edge\":\"user-agent\",\"from\":\"alice\",\"to\":\"planner\"})", out, false)
	size := c.fs.Int("size", 1000, "items per request (at most 1000); each request is stored all or nothing")
	pos, err := c.parse(args, 1)
	if err != nil {
		return err
	}
	if *size < 1 || *size > 1000 {
		return fmt.Errorf("-size must be 1..1000, got %d", *size)
	}
	in := io.Reader(os.Stdin)
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return err
		}
		defer func() { _ = f.Close() }()
		in = f
	}
	var chunk []json.RawMessage
	line, sent := 0, 0
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		raw, err := c.raw(http.MethodPost, "/v1/batch", map[string]any{"items": chunk}, http.StatusOK)
		if err != nil {
			return fmt.Errorf("items %d..%d (nothing of them stored; %d before them were): %w", sent, sent+len(chunk)-1, sent, err)
		}
		var ans struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(raw, &ans); err != nil {
			return fmt.Errorf("answer: %w", err)
		}
		for _, it := range ans.Items {
			if _, err := fmt.Fprintf(out, "%s\n", it); err != nil {
				return err
			}
		}
		sent += len(chunk)
		chunk = chunk[:0]
		return nil
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		if !json.Valid(text) {
			return fmt.Errorf("line %d is not JSON", line)
		}
		chunk = append(chunk, append(json.RawMessage(nil), text...))
		if len(chunk) == *size {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return flush()
}
