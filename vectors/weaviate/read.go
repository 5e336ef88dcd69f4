package weaviate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/graphql"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/cmem/cmem/vectors"
)

// getChunk bounds the ids of one Get query (the query text carries them).
const getChunk = 500

// Get returns the fragments with these ids that exist, with their vectors.
func (s *Store) Get(ctx context.Context, ids []string) ([]vectors.Fragment, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	out := make([]vectors.Fragment, 0, len(ids))
	for b := 0; b < len(ids); b += getChunk {
		chunk := ids[b:min(b+getChunk, len(ids))]
		resp, err := s.client.GraphQL().Get().WithClassName(s.cfg.Class).
			WithWhere(filters.Where().WithPath([]string{propID}).WithOperator(filters.ContainsAny).WithValueText(chunk...)).
			WithLimit(len(chunk)).
			WithFields(append(fragmentFields(), graphql.Field{Name: "_additional", Fields: []graphql.Field{{Name: "vector"}}})...).
			Do(ctx)
		if err != nil {
			return nil, fmt.Errorf("weaviate: get: %w", err)
		}
		objs, err := getObjects(resp, s.cfg.Class)
		if err != nil {
			return nil, fmt.Errorf("weaviate: get: %w", err)
		}
		for _, o := range objs {
			f, err := decodeFragment(o)
			if err != nil {
				return nil, fmt.Errorf("weaviate: get: %w", err)
			}
			if f.Vector, err = additionalVector(o); err != nil {
				return nil, fmt.Errorf("weaviate: get %s: %w", f.ID, err)
			}
			out = append(out, f)
		}
	}
	return out, nil
}

func (s *Store) count(ctx context.Context) (int, error) {
	resp, err := s.client.GraphQL().Aggregate().WithClassName(s.cfg.Class).
		WithFields(graphql.Field{Name: "meta", Fields: []graphql.Field{{Name: "count"}}}).Do(ctx)
	if err != nil {
		return 0, fmt.Errorf("weaviate: count: %w", err)
	}
	if err := gqlErrors(resp); err != nil {
		return 0, fmt.Errorf("weaviate: count: %w", err)
	}
	agg, _ := resp.Data["Aggregate"].(map[string]any)
	rows, _ := agg[s.cfg.Class].([]any)
	if len(rows) != 1 {
		return 0, fmt.Errorf("weaviate: count: unexpected answer %v", resp.Data)
	}
	row, _ := rows[0].(map[string]any)
	meta, _ := row["meta"].(map[string]any)
	n, ok := meta["count"].(float64)
	if !ok {
		return 0, fmt.Errorf("weaviate: count: unexpected answer %v", resp.Data)
	}
	return int(n), nil
}

func fragmentFields() []graphql.Field {
	return []graphql.Field{
		{Name: propID}, {Name: propKey}, {Name: propValue}, {Name: propTier}, {Name: propUser},
		{Name: propAgents}, {Name: propResources}, {Name: propCreatedAt}, {Name: propRevision}, {Name: propModel},
	}
}

func gqlErrors(resp *models.GraphQLResponse) error {
	var errs []error
	for _, e := range resp.Errors {
		errs = append(errs, errors.New(e.Message))
	}
	return errors.Join(errs...)
}

// getObjects returns the objects of a Get answer.
func getObjects(resp *models.GraphQLResponse, class string) ([]map[string]any, error) {
	if err := gqlErrors(resp); err != nil {
		return nil, err
	}
	get, _ := resp.Data["Get"].(map[string]any)
	list, ok := get[class].([]any)
	if !ok && get[class] != nil {
		return nil, fmt.Errorf("unexpected answer for class %s: %T", class, get[class])
	}
	out := make([]map[string]any, 0, len(list))
	for _, x := range list {
		o, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("unexpected object %T", x)
		}
		out = append(out, o)
	}
	return out, nil
}

func decodeFragment(o map[string]any) (vectors.Fragment, error) {
	str := func(k string) string { s, _ := o[k].(string); return s }
	strs := func(k string) []string { return anyStrings(o[k]) }
	f := vectors.Fragment{
		ID: str(propID), Key: str(propKey), Value: str(propValue),
		Tier: str(propTier), User: str(propUser), Model: str(propModel),
		Agents: strs(propAgents), Resources: strs(propResources),
	}
	if f.ID == "" {
		return f, errors.New("object without fragmentId")
	}
	if rev, ok := o[propRevision].(float64); ok {
		f.Revision = uint64(rev)
	}
	if at := str(propCreatedAt); at != "" {
		t, err := time.Parse(time.RFC3339Nano, at)
		if err != nil {
			return f, fmt.Errorf("fragment %s: createdAt: %w", f.ID, err)
		}
		f.CreatedAt = t
	}
	return f, nil
}

func additional(o map[string]any) map[string]any {
	a, _ := o["_additional"].(map[string]any)
	return a
}

func additionalFloat(o map[string]any, name string) (float64, error) {
	x, ok := additional(o)[name].(float64)
	if !ok {
		return 0, fmt.Errorf("no _additional.%s", name)
	}
	return x, nil
}

func additionalVector(o map[string]any) ([]float32, error) {
	xs, ok := additional(o)["vector"].([]any)
	if !ok {
		return nil, errors.New("no _additional.vector")
	}
	v := make([]float32, len(xs))
	for i, x := range xs {
		f, ok := x.(float64)
		if !ok {
			return nil, fmt.Errorf("vector component %T", x)
		}
		v[i] = float32(f)
	}
	return v, nil
}
