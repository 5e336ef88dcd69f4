package gatemem

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
)

// mappings are the relationship mappings of GateMem's domains: what an
// organisation of that kind would write (relationship type → scope and
// read level), not tuned per episode.
//
//go:embed mappings/*.json
var mappings embed.FS

// mapping returns the mapping of domain.
func mapping(domain string) (json.RawMessage, error) {
	b, err := mappings.ReadFile("mappings/" + domain + ".json")
	if err != nil {
		return nil, fmt.Errorf("gatemem: no relationship mapping for domain %q", domain)
	}
	return b, nil
}

// importRelationships imports the episode's relationships through the
// domain's mapping (POST /v1/relationships): every principal owns its own
// record; the relationships open the scopes they name.
func (r *episodeRun) importRelationships(ctx context.Context, ep Episode) error {
	m, err := mapping(ep.Domain)
	if err != nil {
		return err
	}
	principals := make([]string, 0, len(ep.Entities.Principals))
	for _, p := range ep.Entities.Principals {
		principals = append(principals, p.ID)
	}
	rels := ep.Entities.Relationships
	if rels == nil {
		rels = []map[string]any{}
	}
	body := map[string]any{"schema": m, "relationships": rels, "principals": principals}
	_, err = r.api.do(ctx, r.api.admin, http.MethodPost, "/v1/relationships", body, nil)
	return err
}
