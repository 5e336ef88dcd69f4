package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
)

// importCmd is `cmem import relationships FILE`: an organisation's
// relationship facts and their mapping (one JSON document: {"schema",
// "relationships", "principals"?}) imported as grants (POST
// /v1/relationships); it prints the grants made.
func importCmd(args []string, out io.Writer) error {
	if len(args) == 0 || args[0] != "relationships" {
		return errors.New("usage: cmem import relationships FILE|- [flags]")
	}
	c := newCall("import relationships", "import relationships FILE|-  (a JSON document {\"schema\":{\"types\":{…}},\"relationships\":[…]}; see docs/grants.md)", out, false)
	pos, err := c.parse(args[1:], 1)
	if err != nil {
		return err
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
	var doc json.RawMessage
	if err := json.NewDecoder(in).Decode(&doc); err != nil {
		return fmt.Errorf("%s: not a JSON document: %w", pos[0], err)
	}
	return c.do(http.MethodPost, "/v1/relationships", doc, http.StatusOK)
}
