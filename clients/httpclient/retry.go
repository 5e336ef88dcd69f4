package httpclient

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultRetries is how many times a call is sent again after an answer
// that asks for it (Config.Retries 0).
const DefaultRetries = 6

// NoRetries as Config.Retries sends every call once.
const NoRetries = -1

// DefaultMaxRetryWait caps one wait between attempts (Config.MaxRetryWait
// 0): a server that asks for longer is answered with its error at once.
const DefaultMaxRetryWait = 30 * time.Second

// retryBase is the first back-off; each attempt doubles it.
const retryBase = 250 * time.Millisecond

// retryable reports whether an answer asks the caller to send the same
// request again, and after how long at least. A 429 is the gateway's rate
// limiter, which refuses before the handler runs, so nothing was done; a
// 503 is retried only when it carries Retry-After, the server's word that
// the request may be repeated (a 503 without it may follow a write).
func retryable(resp *http.Response) (time.Duration, bool) {
	after, hasAfter := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		return after, true
	case http.StatusServiceUnavailable:
		return after, hasAfter
	}
	return 0, false
}

// parseRetryAfter reads Retry-After as delay-seconds or an HTTP date; a
// past date or a 0 is no wait.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil && s >= 0 {
		return time.Duration(min(s, int64(24*time.Hour/time.Second))) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}

// backoff is the wait before retry attempt (0-based): at least what the
// server asked for and the exponential back-off, plus up to a quarter of
// that again at random, so that callers refused together do not return
// together.
func backoff(attempt int, asked time.Duration) time.Duration {
	exp := retryBase << min(attempt, 10)
	d := max(asked, exp)
	return d + rand.N(d/4+1)
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
