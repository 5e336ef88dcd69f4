package gateway

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"golang.org/x/time/rate"

	"github.com/cmem/cmem/domain"
)

// Rate is one token bucket: PerMinute requests on average, Burst at once.
// PerMinute 0 turns the limit off.
type Rate struct {
	PerMinute float64
	Burst     int
}

// RateLimits bound what one caller (one token's identity) may do; a request
// over its limit answers 429 with Retry-After.
type RateLimits struct {
	Queries       Rate // POST /v1/queries and the NATS ingress
	Fragments     Rate // POST /v1/fragments
	Registrations Rate // POST /v1/users, /v1/agents, /v1/resources
	// Off turns every limit off (a zero RateLimits means the defaults).
	Off bool
}

// ParseRateLimits reads "off", or comma-separated name=PER_MINUTE:BURST
// items (names queries, fragments, registrations; PER_MINUTE 0 turns that
// one off) over the defaults, e.g. "queries=60:10,registrations=0:0".
func ParseRateLimits(s string) (RateLimits, error) {
	l := DefaultRateLimits()
	if strings.TrimSpace(s) == "" {
		return l, nil
	}
	if s == "off" {
		return RateLimits{Off: true}, nil
	}
	for _, item := range strings.Split(s, ",") {
		name, spec, _ := strings.Cut(strings.TrimSpace(item), "=")
		per, burst, _ := strings.Cut(spec, ":")
		p, err1 := strconv.ParseFloat(per, 64)
		b, err2 := strconv.Atoi(burst)
		if err1 != nil || err2 != nil {
			return l, fmt.Errorf("gateway: rate limit %q: want name=PER_MINUTE:BURST", item)
		}
		r := Rate{PerMinute: p, Burst: b}
		switch name {
		case "queries":
			l.Queries = r
		case "fragments":
			l.Fragments = r
		case "registrations":
			l.Registrations = r
		default:
			return l, fmt.Errorf("gateway: rate limit %q: name must be queries, fragments or registrations", item)
		}
	}
	return l, l.Validate()
}

// DefaultRateLimits are generous: they stop a runaway client, not a busy
// one.
func DefaultRateLimits() RateLimits {
	return RateLimits{
		Queries:       Rate{PerMinute: 600, Burst: 100},
		Fragments:     Rate{PerMinute: 6000, Burst: 1000},
		Registrations: Rate{PerMinute: 1200, Burst: 500},
	}
}

// WithDefaults returns l, or DefaultRateLimits if l is zero: a zero
// RateLimits means the defaults, not "no limits" (that is Off).
func (l RateLimits) WithDefaults() RateLimits {
	if l == (RateLimits{}) {
		return DefaultRateLimits()
	}
	return l
}

// Validate reports every problem with l, its defaults filled, in a fixed
// order.
func (l RateLimits) Validate() error {
	l = l.WithDefaults()
	var errs []error
	for _, c := range []struct {
		name string
		r    Rate
	}{{"Queries", l.Queries}, {"Fragments", l.Fragments}, {"Registrations", l.Registrations}} {
		if r := c.r; r.PerMinute < 0 || math.IsNaN(r.PerMinute) || math.IsInf(r.PerMinute, 0) || r.Burst < 0 || (r.PerMinute > 0 && r.Burst == 0) {
			errs = append(errs, fmt.Errorf("gateway: rate limit %s: want PerMinute >= 0 and Burst >= 1", c.name))
		}
	}
	return errors.Join(errs...)
}

var rateLimited = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "cmem_rate_limited_total",
	Help: "Requests refused with 429 because a caller exceeded its rate limit, by limit.",
}, []string{"limit"})

// limiter holds one bucket per (limit, caller).
type limiter struct {
	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

func newLimiter() *limiter { return &limiter{buckets: map[string]*rate.Limiter{}} }

// allow takes one request of who from limit's bucket, or says how long
// until it could.
func (l *limiter) allow(name, who string, r Rate) (bool, time.Duration) {
	if r.PerMinute == 0 || r.Burst == 0 {
		return true, 0
	}
	l.mu.Lock()
	key := name + "\x00" + who
	b, ok := l.buckets[key]
	if !ok {
		b = rate.NewLimiter(rate.Limit(r.PerMinute/60), r.Burst)
		l.buckets[key] = b
	}
	l.mu.Unlock()
	res := b.Reserve()
	if d := res.Delay(); d > 0 {
		res.Cancel()
		rateLimited.WithLabelValues(name).Inc()
		return false, d
	}
	return true, 0
}

// errRateLimited carries the wait to the HTTP answer.
type errRateLimited struct {
	limit string
	wait  time.Duration
}

func (e errRateLimited) Error() string {
	return fmt.Sprintf("rate limit %q exceeded; retry after %ss", e.limit, e.retryAfter())
}

func (e errRateLimited) Unwrap() error { return domain.ErrRateLimited }

// retryAfter is the Retry-After value: whole seconds, rounded up and at
// least 1, so a client that honours it never comes back before a token is
// in the bucket (a 0 would invite an immediate, refused retry).
func (e errRateLimited) retryAfter() string {
	return strconv.Itoa(max(1, int(math.Ceil(e.wait.Seconds()))))
}

// limited wraps h with limit name.
func (s *Server) limited(name string, r Rate, h func(http.ResponseWriter, *http.Request, domain.Identity)) func(http.ResponseWriter, *http.Request, domain.Identity) {
	return func(w http.ResponseWriter, req *http.Request, by domain.Identity) {
		if ok, wait := s.limits.allow(name, by.ID, r); !ok {
			s.fail(w, req, errRateLimited{limit: name, wait: wait})
			return
		}
		h(w, req, by)
	}
}

// IngressRate is the query limit the NATS ingress applies.
func (l RateLimits) IngressRate() Rate {
	if l.Off {
		return Rate{}
	}
	return l.Queries
}
