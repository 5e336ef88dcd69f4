package gatemem

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"

	"github.com/cmem/cmem/domain"
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
// record; the relationships open the scopes they name, and the
// principals' roles the scopes the mapping's roles open.
func (r *episodeRun) importRelationships(ctx context.Context, ep Episode) error {
	m, err := mapping(ep.Domain)
	if err != nil {
		return err
	}
	principals := make([]string, 0, len(ep.Entities.Principals))
	roles := make(map[string]string, len(ep.Entities.Principals))
	for _, p := range ep.Entities.Principals {
		principals = append(principals, p.ID)
		roles[p.ID] = p.Role
	}
	rels := ep.Entities.Relationships
	if rels == nil {
		rels = []map[string]any{}
	}
	// cmem refuses a whole import that holds a relationship its mapping
	// cannot place, naming it; the harness leaves that one out (it grants
	// nothing, so access only narrows) and says so, as an operator would
	// fix the file and import again.
	for {
		body := map[string]any{"schema": m, "relationships": rels, "principals": principals, "principal_roles": roles}
		_, err = r.api.do(ctx, r.api.admin, http.MethodPost, "/v1/relationships", body, nil)
		i, ok := refusedRelationship(err, len(rels))
		if !ok {
			return err
		}
		r.stats.LeftOut = append(r.stats.LeftOut, fmt.Sprintf("%s: %v (%v)", ep.ID, rels[i], err))
		rels = append(rels[:i:i], rels[i+1:]...)
	}
}

// refusedRelationshipRE finds the index cmem names in a refused import.
var refusedRelationshipRE = regexp.MustCompile(`relationships\[(\d+)\]`)

// refusedRelationship is the index of the relationship err (a 400 of
// POST /v1/relationships) names, if any, within n.
func refusedRelationship(err error, n int) (int, bool) {
	if err == nil || !errors.Is(err, domain.ErrInvalid) {
		return 0, false
	}
	m := refusedRelationshipRE.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, false
	}
	i, convErr := strconv.Atoi(m[1])
	return i, convErr == nil && i < n
}
