package weaviate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/fault"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/cmem/cmem/vectors"
)

// The registry of reader classes is persisted in a class of its own, one
// object per reader class, so that a restarted writer searches through
// the labels its predecessor materialised from its first query. A class
// persisted as ready is trusted as ready, which is sound because:
//
//   - it is persisted ready only after a pass ended with it registered;
//   - while registered in memory, every write of this Store labels with
//     it, and it leaves memory only after it left the persisted registry
//     (eviction forgets it there first);
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

// loadRegistry registers the persisted reader classes, ready as they were
// persisted. An entry whose label is not its spec's (another hash) is
// skipped: its class registers again at its first search.
func (s *Store) loadRegistry(ctx context.Context) error {
	r := s.labels
	r.mu.Lock()
	defer r.mu.Unlock()
	for after := ""; ; {
		get := s.client.Data().ObjectsGetter().WithClassName(s.registryClass()).WithLimit(100)
		if after != "" {
			get = get.WithAfter(after)
		}
		objs, err := get.Do(ctx)
		if err != nil {
			return fmt.Errorf("weaviate: read the reader classes: %w", err)
		}
		for _, o := range objs {
			props, _ := o.Properties.(map[string]any)
			label, _ := props[regLabel].(string)
			spec, _ := props[regSpec].(string)
			ready, _ := props[regReady].(bool)
			var ps persistedSpec
			f := vectors.Filter{}
			if json.Unmarshal([]byte(spec), &ps) == nil {
				f = vectors.Filter{Tier: ps.Tier, User: ps.User, AllowedAgents: ps.Agents, AllowedResources: ps.Resources}
			}
			if f.Tier == "" || readerLabel(f) != label {
				s.cfg.Logger.Warn("weaviate: a persisted reader class does not match its label; skipped", "class", s.cfg.Class, "label", label)
				continue
			}
			r.addLocked(newReaderClass(label, f), ready)
		}
		if len(objs) < 100 {
			return nil
		}
		after = string(objs[len(objs)-1].ID)
	}
}

// persistClasses writes cs to the persisted registry with their ready
// flags as they are now. Only the materialiser calls it, so it never
// races with forgetClasses.
func (s *Store) persistClasses(ctx context.Context, cs []*readerClass) error {
	if len(cs) == 0 {
		return nil
	}
	s.labels.mu.RLock()
	objs := make([]*models.Object, len(cs))
	for i, c := range cs {
		spec, err := json.Marshal(persistedSpec{Tier: c.spec.Tier, User: c.spec.User,
			Agents: c.spec.AllowedAgents, Resources: c.spec.AllowedResources})
		if err != nil {
			s.labels.mu.RUnlock()
			return fmt.Errorf("weaviate: reader class %s: %w", c.label, err)
		}
		objs[i] = &models.Object{Class: s.registryClass(), ID: s.registryID(c.label),
			Properties: map[string]any{regLabel: c.label, regSpec: string(spec), regReady: c.ready}}
	}
	s.labels.mu.RUnlock()
	resp, err := s.client.Batch().ObjectsBatcher().WithObjects(objs...).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: persist reader classes: %w", err)
	}
	return batchErrors(resp)
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
