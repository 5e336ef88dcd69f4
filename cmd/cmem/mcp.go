package main

import (
	"errors"
	"io"
)

func mcpCmd(args []string, out io.Writer) error { return errors.New("not yet") }
