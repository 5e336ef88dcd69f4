package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/cmem/cmem/domain"
)

// heartbeat keeps idle streams open through proxies.
const heartbeat = 15 * time.Second

// eventStream serves GET /v1/events/stream as server-sent events: one
// "event" per log event the caller may see (app.LiveEvents decides), id =
// its revision. A reconnect sends Last-Event-ID (or ?after=) and resumes
// after it. The stream ends when the client goes, the server shuts down
// (CloseStreams) or the client fell too far behind (reconnect).
func (s *Server) eventStream(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	after, err := uintParam(r.URL.Query(), "after")
	if err == nil && r.Header.Get("Last-Event-ID") != "" {
		after, err = strconv.ParseUint(r.Header.Get("Last-Event-ID"), 10, 64)
		if err != nil {
			err = fmt.Errorf("%w: Last-Event-ID must be a revision", domain.ErrInvalid)
		}
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ctx, cancel := s.streamContext(r)
	defer cancel()
	evs, err := s.app.LiveEvents(ctx, by, after)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rc := http.NewResponseController(w)
	// The server's read and write timeouts bound ordinary requests; a
	// stream lives as long as its client. Its background read must not
	// time out (that cancels the request), and each write gets its own
	// deadline instead, so a client that stops reading is let go.
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Now().Add(2 * heartbeat))
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_, _ = fmt.Fprint(w, "retry: 2000\n\n")
	_ = rc.Flush()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case e, ok := <-evs:
			_ = rc.SetWriteDeadline(time.Now().Add(2 * heartbeat))
			if !ok {
				return
			}
			data, _ := json.Marshal(e)
			if _, err := fmt.Fprintf(w, "id: %d\nevent: log\ndata: %s\n\n", e.Revision, data); err != nil {
				return
			}
		case <-tick.C:
			_ = rc.SetWriteDeadline(time.Now().Add(2 * heartbeat))
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
		case <-ctx.Done():
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

// streamContext is r's context, also ended by CloseStreams.
func (s *Server) streamContext(r *http.Request) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(r.Context())
	stop := context.AfterFunc(s.closing, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// CloseStreams ends every open event stream, so that an http.Server
// shutting down does not wait for browsers to leave (register it with
// http.Server.RegisterOnShutdown).
func (s *Server) CloseStreams() { s.closeStreams() }
