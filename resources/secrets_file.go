package resources

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// maxSecretBytes bounds a secret file: a credential is a line, and a
// larger file is more likely a mistake (or a link to something else).
const maxSecretBytes = 64 << 10

// readSecretFile reads name in dir through os.Root, which refuses a name or
// symbolic link that leads out of dir (and absolute links altogether), so a
// link planted in the secrets directory cannot make a resource send some
// other file of the server's as a header, and the check cannot be raced by
// swapping a file for a link after a lexical test.
func readSecretFile(dir, name string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("file %q: the secrets directory is not readable", name)
	}
	defer func() { _ = root.Close() }()
	f, err := root.Open(name)
	switch {
	case err != nil && isEscape(err):
		return nil, fmt.Errorf("file %q: a symbolic link that leaves the secrets directory", name)
	case err != nil:
		return nil, fmt.Errorf("file %q: not readable in the secrets directory", name)
	}
	defer func() { _ = f.Close() }()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("file %q: not a regular file in the secrets directory", name)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSecretBytes+1))
	if err != nil {
		return nil, fmt.Errorf("file %q: not readable in the secrets directory", name)
	}
	if len(b) > maxSecretBytes {
		return nil, fmt.Errorf("file %q: larger than %d bytes, not a secret", name, maxSecretBytes)
	}
	return b, nil
}

// isEscape reports whether err is os.Root refusing a path that leaves it.
func isEscape(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}
