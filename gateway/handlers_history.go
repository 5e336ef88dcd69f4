package gateway

import (
	"fmt"
	"net/http"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// fragmentHistory is GET /v1/fragments/{id}/history?agent=A[&min_revision=N]:
// the versions of the fragment's fact the caller may read through A.
func (s *Server) fragmentHistory(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	q := r.URL.Query()
	minRev, err := minRevision(q)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := s.app.FragmentHistory(r.Context(), by, app.HistoryRequest{Agent: q.Get("agent"), ID: r.PathValue("id"), MinRevision: minRev})
	s.answer(w, r, http.StatusOK, ans, err)
}

// parseAsOf reads a view's as_of: RFC 3339, or a date YYYY-MM-DD meaning
// the end of that day (UTC), so the whole day's facts are in. Empty is nil
// (now).
func parseAsOf(v string) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		d, derr := time.Parse(time.DateOnly, v)
		if derr != nil {
			return nil, fmt.Errorf("%w: as_of %q is neither RFC 3339 (2023-05-07T13:56:00Z) nor a date (2023-05-07)", domain.ErrInvalid, v)
		}
		t = d.AddDate(0, 0, 1).Add(-time.Nanosecond)
	}
	if err := checkTime("as_of", t); err != nil {
		return nil, err
	}
	return &t, nil
}
