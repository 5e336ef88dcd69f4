package main

import (
	"errors"
	"io"
)

// benchLocomoCmd is `cmem bench locomo`.
func benchLocomoCmd(args []string, out io.Writer) error {
	return errors.New("bench locomo: not built yet")
}
