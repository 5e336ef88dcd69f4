// Package query owns the state of a query in the pipeline as its events
// tell it: submitted, the coordinator's choice and the agent's response per
// round, the resource calls, and the answer or failure. The Projection is
// rebuilt from the log in every process; the HTTP gateway waits on it for
// answers and the workers read it to decide their next step.
package query
