package workers

import (
	"context"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events"
)

// coordinate turns a QuerySubmitted or AgentResponded into the command
// that moves its query on.
func (p *Pipeline) coordinate(ctx context.Context, rec events.Record) error {
	cmd := app.CoordinateCmd{QueryID: rec.CorrelationID, Cause: rec.ID, Revision: rec.Revision}
	if rec.Type == events.TypeAgentResponded {
		pl, err := rec.Decode()
		if err != nil {
			return err
		}
		cmd.AfterRound = pl.(*events.AgentResponded).Round
	}
	return p.app.Coordinate(ctx, cmd)
}

// runAgent turns an AgentSelected into its agent turn.
func (p *Pipeline) runAgent(ctx context.Context, rec events.Record) error {
	pl, err := rec.Decode()
	if err != nil {
		return err
	}
	return p.app.RunAgentTurn(ctx, app.AgentTurnCmd{Selected: *pl.(*events.AgentSelected), Cause: rec.ID, Revision: rec.Revision})
}
