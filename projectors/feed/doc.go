// Package feed owns the live event feed: a projection of the log that keeps
// the metadata of the most recent events (type, revision, time and the ids
// they are about, never their content) in a bounded ring and fans each new
// one out to subscribers. Who may see which event is decided by the use
// case that serves it (app.LiveEvents), not here.
package feed
