package main

import (
	"bytes"
	"os"
	"path/filepath"
)

// allowOutFile adds -out FILE to a command whose answer holds a secret (a
// user's token): the answer goes to FILE, written whole or not at all, so
// a failed call never leaves an empty or partial token file behind.
func (c *call) allowOutFile() {
	c.outFile = c.fs.String("out", "", "write the answer (or the -get field) to this file (mode 0600, replaced only on success) instead of stdout")
}

// printTo prints raw to -out's file when one is set, else to c.out.
func (c *call) printTo(raw []byte) error {
	if c.outFile == nil || *c.outFile == "" {
		return c.print(raw)
	}
	var buf bytes.Buffer
	w := c.out
	c.out = &buf
	err := c.print(raw)
	c.out = w
	if err != nil {
		return err
	}
	return writeFileAtomic(*c.outFile, buf.Bytes())
}

// writeFileAtomic writes data to a temporary file beside name and renames
// it over name, so readers see the old content or the new, never a part.
func writeFileAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(f.Name()) }()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
