package weaviate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/fault"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/cmem/cmem/vectors"
)

// The registry of reader classes is persisted in a class of its own, one
// object per reader class, so that a restarted writer searches through
// the labels its predecessor materialised from its first query, and so
// that every process of a shared class (shared.go) reads there which
// labels the writer maintains. A class persisted as ready is trusted as
// ready, which is sound because:
//
//   - only the writer persists it ready, after a pass that ended with it
//     registered;
//   - while registered in memory, every write of the writer labels with
//     it, and it leaves memory only after it left the persisted registry
//     (eviction forgets it there first, and a shared writer keeps
//     labelling with it for leaveGrace, longer than any process trusts
//     a ready flag it read: readyValid);
//   - a writer of a shared class reads the persisted registry before
//     each write, so a new holder of the lease labels with every class
//     its predecessor persisted;
//   - a Store that writes without labels forgets the whole persisted
//     registry before its first write (forgetRegistry).
//
// Trusting a wrong "ready" could only lose answers, never leak them:
// every hit of a label is checked in Go against its class.

// registryClass names the class that holds the persisted registry.
func (s *Store) registryClass() string { return s.cfg.Class + "Readers" }

func (s *Store) registryID(label string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(uuid.NameSpaceURL, []byte("cmem-reader:"+s.cfg.Class+":"+label)).String())
}

// Property names of a persisted reader class.
const (
	regLabel = "label"
	regSpec  = "spec" // JSON of the class's filter: tier, user, allowed sets
	regReady = "ready"
	regUsed  = "used" // unix milliseconds of the last search through it that was recorded
)

// persistedSpec is a reader class's filter as the registry stores it.
type persistedSpec struct {
	Tier      string   `json:"tier"`
	User      string   `json:"user,omitempty"`
	Agents    []string `json:"agents"`
	Resources []string `json:"resources"`
}

func (s *Store) ensureRegistryClass(ctx context.Context) error {
	c := s.registryClass()
	exists, err := s.client.Schema().ClassExistenceChecker().WithClassName(c).Do(ctx)
	if err != nil || exists {
		return err
	}
	no := false
	err = s.client.Schema().ClassCreator().WithClass(&models.Class{
		Class: c, Vectorizer: "none", Description: "cmem: the reader classes labelled in " + s.cfg.Class,
		Properties: []*models.Property{
			{Name: regLabel, DataType: []string{"text"}, Tokenization: "field"},
			{Name: regSpec, DataType: []string{"text"}, IndexFilterable: &no, IndexSearchable: &no},
			{Name: regReady, DataType: []string{"boolean"}},
			{Name: regUsed, DataType: []string{"int"}},
		},
	}).Do(ctx)
	if again, cerr := s.client.Schema().ClassExistenceChecker().WithClassName(c).Do(ctx); err != nil && cerr == nil && again {
		return nil
	}
	if err != nil {
		return fmt.Errorf("weaviate: create %s: %w", c, err)
	}
	return nil
}

// entry is one persisted reader class.
type entry struct {
	class *readerClass
	ready bool
	used  int64 // unix nanoseconds
}

// readRegistry reads every persisted reader class. An entry whose label
// is not its spec's (another hash) is skipped: its class registers again
// at its first search.
func (s *Store) readRegistry(ctx context.Context) ([]entry, error) {
	var out []entry
	for after := ""; ; {
		get := s.client.Data().ObjectsGetter().WithClassName(s.registryClass()).WithLimit(100)
		if after != "" {
			get = get.WithAfter(after)
		}
		objs, err := get.Do(ctx)
		if err != nil {
			return nil, fmt.Errorf("weaviate: read the reader classes: %w", err)
		}
		for _, o := range objs {
			props, _ := o.Properties.(map[string]any)
			label, _ := props[regLabel].(string)
			spec, _ := props[regSpec].(string)
			ready, _ := props[regReady].(bool)
			used, _ := props[regUsed].(float64)
			var ps persistedSpec
			f := vectors.Filter{}
			if json.Unmarshal([]byte(spec), &ps) == nil {
				f = vectors.Filter{Tier: ps.Tier, User: ps.User, AllowedAgents: ps.Agents, AllowedResources: ps.Resources}
			}
			if f.Tier == "" || readerLabel(f) != label {
				s.cfg.Logger.Warn("weaviate: a persisted reader class does not match its label; skipped", "class", s.cfg.Class, "label", label)
				continue
			}
			out = append(out, entry{class: newReaderClass(label, f), ready: ready, used: int64(used) * int64(time.Millisecond)})
		}
		if len(objs) < 100 {
			return out, nil
		}
		after = string(objs[len(objs)-1].ID)
	}
}

// record is the persisted form of c, with its ready flag as it is now;
// the caller holds mu.
func (s *Store) record(c *readerClass) (*models.Object, error) {
	spec, err := json.Marshal(persistedSpec{Tier: c.spec.Tier, User: c.spec.User,
		Agents: c.spec.AllowedAgents, Resources: c.spec.AllowedResources})
	if err != nil {
		return nil, fmt.Errorf("weaviate: reader class %s: %w", c.label, err)
	}
	return &models.Object{Class: s.registryClass(), ID: s.registryID(c.label),
		Properties: map[string]any{regLabel: c.label, regSpec: string(spec), regReady: c.ready,
			regUsed: c.used.Load() / int64(time.Millisecond)}}, nil
}

// persistClasses writes cs to the persisted registry with their ready
// flags as they are now, leaving out those being evicted. Only the
// writer's materialiser calls it, so it never races with forgetClasses.
func (s *Store) persistClasses(ctx context.Context, cs []*readerClass) error {
	s.labels.mu.RLock()
	var objs []*models.Object
	var kept []*readerClass
	for _, c := range cs {
		if !c.leaving.IsZero() {
			continue
		}
		o, err := s.record(c)
		if err != nil {
			s.labels.mu.RUnlock()
			return err
		}
		objs, kept = append(objs, o), append(kept, c)
	}
	s.labels.mu.RUnlock()
	if len(objs) == 0 {
		return nil
	}
	resp, err := s.client.Batch().ObjectsBatcher().WithObjects(objs...).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: persist reader classes: %w", err)
	}
	if err := batchErrors(resp); err != nil {
		return err
	}
	s.labels.mu.Lock()
	for _, c := range kept {
		c.persisted = c.leaving.IsZero()
		c.pushed = c.used.Load()
	}
	s.labels.mu.Unlock()
	return nil
}

// forgetClasses removes cs from the persisted registry.
func (s *Store) forgetClasses(ctx context.Context, cs []*readerClass) error {
	for _, c := range cs {
		err := s.client.Data().Deleter().WithClassName(s.registryClass()).WithID(string(s.registryID(c.label))).Do(ctx)
		var ue *fault.WeaviateClientError
		if errors.As(err, &ue) && ue.StatusCode == http.StatusNotFound {
			continue // never persisted, or forgotten already
		}
		if err != nil {
			return fmt.Errorf("weaviate: forget reader class %s: %w", c.label, err)
		}
	}
	return nil
}
