package resources

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// readDocumentDir reads the .txt and .md files of dir, a directory inside
// rootDir, one document per file with the file name as id. All access goes
// through os.Root, which refuses any name or symbolic link that leads out
// of rootDir (and absolute symbolic links altogether), so the check cannot
// be raced by swapping a directory for a link after a lexical test.
// Subdirectories and other files are ignored; empty files are skipped.
func readDocumentDir(rootDir, dir string, opts Options) ([]kbDocument, error) {
	if rootDir == "" {
		return nil, fmt.Errorf("%w: path: server-side documents are disabled (no document root is configured)", ErrConfig)
	}
	rel, err := relativeTo(rootDir, dir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(rootDir)
	if err != nil {
		return nil, fmt.Errorf("%w: path: document root: %w", ErrConfig, err)
	}
	defer func() { _ = root.Close() }()
	sub, err := root.OpenRoot(rel)
	if err != nil {
		return nil, fmt.Errorf("%w: path %q: %w", ErrConfig, dir, err)
	}
	defer func() { _ = sub.Close() }()
	names, err := listDir(sub)
	if err != nil {
		return nil, fmt.Errorf("%w: path %q: %w", ErrConfig, dir, err)
	}
	var docs []kbDocument
	for _, name := range names {
		ext := strings.ToLower(filepath.Ext(name))
		if ext != ".txt" && ext != ".md" {
			continue
		}
		text, ok, err := readDocumentFile(sub, name, opts.MaxDocumentBytes)
		if err != nil {
			return nil, fmt.Errorf("%w: path %q: %s: %w", ErrConfig, dir, name, err)
		}
		if !ok {
			continue
		}
		if len(docs) == opts.MaxDocuments {
			return nil, fmt.Errorf("%w: path %q: more than the limit of %d documents", ErrConfig, dir, opts.MaxDocuments)
		}
		docs = append(docs, kbDocument{ID: name, Text: text})
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("%w: path %q holds no non-empty .txt or .md files", ErrConfig, dir)
	}
	return docs, nil
}

// relativeTo turns dir into a local name under rootDir. An absolute dir is
// accepted when it lies under rootDir as written or as its symbolic links
// resolve, since operators configure one or the other.
func relativeTo(rootDir, dir string) (string, error) {
	rel := dir
	if filepath.IsAbs(dir) {
		rel = ""
		candidates := []string{rootDir}
		if abs, err := filepath.Abs(rootDir); err == nil {
			candidates = append(candidates, abs)
		}
		if resolved, err := filepath.EvalSymlinks(rootDir); err == nil {
			candidates = append(candidates, resolved)
		}
		for _, c := range candidates {
			if r, err := filepath.Rel(c, dir); err == nil && filepath.IsLocal(r) {
				rel = r
				break
			}
		}
	}
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%w: path %q is outside the document root", ErrConfig, dir)
	}
	return rel, nil
}

func listDir(dir *os.Root) ([]string, error) {
	f, err := dir.Open(".")
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	slices.Sort(names) // documents in a stable order, whatever the file system
	return names, nil
}

var errTooLarge = errors.New("file too large")

// readDocumentFile reads one file. ok is false for what is not a document:
// directories, devices and pipes (opening a pipe would block), and empty
// files.
func readDocumentFile(dir *os.Root, name string, maxBytes int) (text string, ok bool, err error) {
	info, err := dir.Stat(name)
	if err != nil {
		return "", false, err
	}
	if !info.Mode().IsRegular() {
		return "", false, nil
	}
	f, err := dir.Open(name)
	if err != nil {
		return "", false, err
	}
	defer func() { _ = f.Close() }()
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		return "", false, err
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(maxBytes)+1))
	if err != nil {
		return "", false, err
	}
	if len(data) > maxBytes {
		return "", false, fmt.Errorf("%w: more than %d bytes", errTooLarge, maxBytes)
	}
	text = strings.ToValidUTF8(string(data), "\uFFFD")
	if strings.TrimSpace(text) == "" {
		return "", false, nil
	}
	return text, true, nil
}
