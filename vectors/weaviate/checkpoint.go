package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/fault"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/cmem/cmem/vectors"
)

var _ vectors.Checkpointer = (*Store)(nil)

// checkpointClass holds one object per fragment class: how far the log has
// been applied to it and with which embedder. A separate class keeps it out
// of searches and counts.
func (s *Store) checkpointClass() string { return s.cfg.Class + "Checkpoint" }

func (s *Store) checkpointID() strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(uuid.NameSpaceURL, []byte("cmem-checkpoint:"+s.cfg.Class)).String())
}

func (s *Store) ensureCheckpointClass(ctx context.Context) error {
	c := s.checkpointClass()
	exists, err := s.client.Schema().ClassExistenceChecker().WithClassName(c).Do(ctx)
	if err != nil || exists {
		return err
	}
	err = s.client.Schema().ClassCreator().WithClass(&models.Class{
		Class: c, Vectorizer: "none", Description: "cmem: how far the log has been applied to " + s.cfg.Class,
		Properties: []*models.Property{
			{Name: "revision", DataType: []string{"int"}},
			{Name: "model", DataType: []string{"text"}, Tokenization: "field"},
		},
	}).Do(ctx)
	if again, cerr := s.client.Schema().ClassExistenceChecker().WithClassName(c).Do(ctx); err != nil && cerr == nil && again {
		return nil
	}
	return err
}

// Checkpoint returns the revision up to which every fragment event has been
// written to the class, and the embedder model of its vectors; 0 and ""
// when nothing was recorded.
func (s *Store) Checkpoint(ctx context.Context) (uint64, string, error) {
	if s.closed.Load() {
		return 0, "", ErrClosed
	}
	objs, err := s.client.Data().ObjectsGetter().WithClassName(s.checkpointClass()).WithID(s.checkpointID().String()).Do(ctx)
	if err != nil {
		var fe *fault.WeaviateClientError
		if errors.As(err, &fe) && fe.StatusCode == http.StatusNotFound {
			return 0, "", nil
		}
		return 0, "", fmt.Errorf("weaviate: read checkpoint: %w", err)
	}
	if len(objs) == 0 {
		return 0, "", nil
	}
	props, _ := objs[0].Properties.(map[string]any)
	rev, _ := props["revision"].(float64)
	model, _ := props["model"].(string)
	return uint64(rev), model, nil
}

// SetCheckpoint records that every fragment event up to rev has been
// written with vectors of model. Callers set it only after the writes it
// covers succeeded, so it never runs ahead of the class.
func (s *Store) SetCheckpoint(ctx context.Context, rev uint64, model string) error {
	if s.closed.Load() {
		return ErrClosed
	}
	obj := &models.Object{Class: s.checkpointClass(), ID: s.checkpointID(),
		Properties: map[string]any{"revision": rev, "model": model}}
	resp, err := s.client.Batch().ObjectsBatcher().WithObjects(obj).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: write checkpoint: %w", err)
	}
	return batchErrors(resp)
}
