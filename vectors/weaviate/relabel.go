package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/fault"
)

// patchesInFlight bounds the concurrent PATCHes of a page.
const patchesInFlight = 4

// materialisePage relabels the page of objects after the id after, under
// the registry's write lock, and returns its last id and its length.
func (s *Store) materialisePage(ctx context.Context, after string) (string, int, error) {
	r := s.labels
	r.mu.Lock()
	defer r.mu.Unlock()
	get := s.client.Data().ObjectsGetter().WithClassName(s.cfg.Class).WithLimit(r.page)
	if after != "" {
		get = get.WithAfter(after)
	}
	objs, err := get.Do(ctx)
	if err != nil {
		return "", 0, fmt.Errorf("weaviate: list for reader labels: %w", err)
	}
	type relabel struct {
		id     string
		labels []string
	}
	var todo []relabel
	for _, o := range objs {
		props, _ := o.Properties.(map[string]any)
		f, err := decodeFragment(props)
		if err != nil {
			return "", 0, fmt.Errorf("weaviate: reader labels: %w", err)
		}
		want := r.labelsFor(&f)
		have := anyStrings(props[propReaders])
		slices.Sort(have)
		if !slices.Equal(want, have) {
			todo = append(todo, relabel{string(o.ID), want})
		}
	}
	// A few PATCHes in flight: each is one small request, and one at a
	// time leaves the server mostly waiting on the round trip.
	errs := make([]error, len(todo))
	sem := make(chan struct{}, patchesInFlight)
	var wg sync.WaitGroup
	for i, t := range todo {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = s.patchReaders(ctx, t.id, t.labels)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return "", 0, err
	}
	if len(objs) == 0 {
		return "", 0, nil
	}
	return string(objs[len(objs)-1].ID), len(objs), nil
}

// patchReaders sets the readers property of one object by a merge PATCH,
// which leaves its other properties and its vector as they are.
func (s *Store) patchReaders(ctx context.Context, id string, labels []string) error {
	err := s.client.Data().Updater().WithMerge().WithClassName(s.cfg.Class).WithID(id).
		WithProperties(map[string]any{propReaders: labels}).Do(ctx)
	var ue *fault.WeaviateClientError
	if errors.As(err, &ue) && ue.StatusCode == http.StatusNotFound {
		return nil // deleted by another writer; a delete here holds the read lock
	}
	if err != nil {
		return fmt.Errorf("weaviate: label %s: %w", id, err)
	}
	return nil
}

// anyStrings is the strings of a decoded JSON array.
func anyStrings(x any) []string {
	xs, _ := x.([]any)
	out := make([]string, 0, len(xs))
	for _, v := range xs {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
