package gatemem

import "context"

// importRelationships imports the episode's relationships as grants.
func (r *episodeRun) importRelationships(ctx context.Context, ep Episode) error {
	return nil
}
