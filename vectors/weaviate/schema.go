package weaviate

import (
	"context"
	"fmt"

	"github.com/weaviate/weaviate/entities/models"
)

// Property names of a fragment object.
const (
	propID        = "fragmentId"
	propKey       = "key"
	propValue     = "value"
	propTier      = "tier"
	propUser      = "user"
	propAgents    = "agents"
	propResources = "resources"
	propCreatedAt = "createdAt"
	propRevision  = "revision"
	propModel     = "model"
	// propReaders holds the labels of the reader classes that may read
	// the object (labels.go); empty with Config.ExclusionFilter.
	propReaders = "readers"
)

func (s *Store) classDefinition() *models.Class {
	no, yes := false, true
	// Ids are matched whole: "field" keeps "kb-1" from matching "kb".
	field := func(name, dataType string) *models.Property {
		return &models.Property{Name: name, DataType: []string{dataType}, Tokenization: "field",
			IndexFilterable: &yes, IndexSearchable: &no}
	}
	// Kept for reading back, never filtered on: no index to maintain.
	stored := func(name, dataType string) *models.Property {
		return &models.Property{Name: name, DataType: []string{dataType},
			IndexFilterable: &no, IndexSearchable: &no}
	}
	index := map[string]any{"distance": "cosine"}
	if s.cfg.FlatSearchCutoff > 0 {
		index["flatSearchCutoff"] = s.cfg.FlatSearchCutoff
	}
	return &models.Class{
		Class:             s.cfg.Class,
		Description:       "cmem memory fragments: key/value, provenance and the embedding of key and value",
		Vectorizer:        "none",
		VectorIndexType:   "hnsw",
		VectorIndexConfig: index,
		Properties: []*models.Property{
			field(propID, "text"),
			// Key and value are searchable: hybrid search runs BM25F over
			// them, and a read policy's keyword filter matches them.
			{Name: propKey, DataType: []string{"text"}, Tokenization: "word"},
			{Name: propValue, DataType: []string{"text"}, Tokenization: "word"},
			field(propTier, "text"),
			field(propUser, "text"),
			field(propAgents, "text[]"),
			field(propResources, "text[]"),
			// Filterable for "visible at t" questions; stored as
			// RFC 3339 with nanoseconds, which Weaviate keeps exactly.
			{Name: propCreatedAt, DataType: []string{"date"}},
			{Name: propRevision, DataType: []string{"int"}},
			stored(propModel, "text"),
			field(propReaders, "text[]"),
		},
	}
}

// ensureClass creates the class unless it exists. Two processes may race
// to create it; the loser finds it on the second look.
func (s *Store) ensureClass(ctx context.Context) error {
	if err := s.ensureCheckpointClass(ctx); err != nil {
		return fmt.Errorf("weaviate: checkpoint class: %w", err)
	}
	exists, err := s.client.Schema().ClassExistenceChecker().WithClassName(s.cfg.Class).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: check class %s: %w", s.cfg.Class, err)
	}
	if exists {
		return nil
	}
	err = s.client.Schema().ClassCreator().WithClass(s.classDefinition()).Do(ctx)
	if err == nil {
		return nil
	}
	if again, cerr := s.client.Schema().ClassExistenceChecker().WithClassName(s.cfg.Class).Do(ctx); cerr == nil && again {
		return nil
	}
	return fmt.Errorf("weaviate: create class %s: %w", s.cfg.Class, err)
}

// ensureReadersProperty adds the readers property to a class created
// before reader labels existed; its objects are labelled by the first
// materialisation pass.
func (s *Store) ensureReadersProperty(ctx context.Context) error {
	class, err := s.client.Schema().ClassGetter().WithClassName(s.cfg.Class).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: read class %s: %w", s.cfg.Class, err)
	}
	for _, p := range class.Properties {
		if p.Name == propReaders {
			return nil
		}
	}
	yes, no := true, false
	err = s.client.Schema().PropertyCreator().WithClassName(s.cfg.Class).WithProperty(&models.Property{
		Name: propReaders, DataType: []string{"text[]"}, Tokenization: "field", IndexFilterable: &yes, IndexSearchable: &no,
	}).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: add %s to class %s: %w", propReaders, s.cfg.Class, err)
	}
	return nil
}
