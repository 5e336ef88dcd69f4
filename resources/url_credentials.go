package resources

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// queryCredentialWords are the parts of a query parameter's name (split at
// -, _ and .) that mark a credential: api_key, access_token, X-Amz-Signature,
// client_secret, sig, … A whole name ending in apikey, accesskey, token or
// secret (apiKey, authtoken) counts too. Parts, not substrings, so that
// "keywords" or "monkey" stay plain parameters.
var queryCredentialWords = []string{"key", "apikey", "token", "secret", "password", "passwd", "pwd", "pass", "auth",
	"authorization", "credential", "credentials", "session", "sessionid", "signature", "sig", "cookie", "jwt", "bearer"}

// checkURLCredentials refuses a resource URL that carries a credential:
// user information (https://user:pw@host) or a query parameter named like
// one. The config is an event, kept in the log forever and shown to
// whoever may read the resource, so a credential in it would be stored in
// clear; it belongs in a header passed by reference. Errors name the
// parameter, never its value.
func checkURLCredentials(u *url.URL) error {
	var errs []error
	if u.User != nil {
		errs = append(errs, errors.New(`url: carries user information (user:password@host), which the log would keep forever; pass the credential in a header by reference: "headers": {"Authorization": {"env": "`+SecretEnvPrefix+`NAME"}}`))
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return errors.Join(append(errs, errors.New("url: the query string is malformed"))...)
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range q {
			if !yield(k) {
				return
			}
		}
	}) {
		if credentialParam(name) {
			errs = append(errs, fmt.Errorf(`url: query parameter %q carries a credential, which the log would keep forever; pass it in a header by reference ({"env": "%sNAME"} or {"file": "name"})`, name, SecretEnvPrefix))
		}
	}
	return errors.Join(errs...)
}

// credentialParam reports whether a query parameter named name carries a
// credential.
func credentialParam(name string) bool {
	n := strings.ToLower(name)
	for _, suffix := range []string{"apikey", "accesskey", "secretkey", "privatekey", "token", "secret"} {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	for _, part := range strings.FieldsFunc(n, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if slices.Contains(queryCredentialWords, part) {
			return true
		}
	}
	return false
}
