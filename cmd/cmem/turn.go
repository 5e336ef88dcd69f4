package main

import (
	"io"
	"net/http"
	"strings"
)

// turnCmd runs `cmem turn TEXT…`: one utterance of the caller in a
// conversation (POST /v1/turns). cmem writes it into the scope(s) it
// concerns and applies the governance it carries when the speaker has the
// authority (docs/grants.md); it prints where it went and why.
func turnCmd(args []string, out io.Writer) error {
	c := newCall("turn", "turn TEXT…  (what the caller says; quote it or give it as several words)", out, true)
	words, err := c.parse(args, -1)
	if err != nil {
		return err
	}
	text := strings.Join(words, " ")
	return c.do(http.MethodPost, "/v1/turns", map[string]any{"text": text}, http.StatusCreated)
}
