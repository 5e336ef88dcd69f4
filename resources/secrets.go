package resources

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
)

// SecretEnvPrefix is the prefix an environment variable named by a header
// reference must carry, so that a resource can never send the process's
// own credentials (OPENAI_API_KEY, CMEM_ADMIN_TOKEN, …) to its URL.
const SecretEnvPrefix = "CMEM_SECRET_"

// headerValue is one configured header: a literal, or a reference to a
// secret that is read at call time and never stored in the log.
type headerValue struct {
	Literal string
	Env     string // {"env": "CMEM_SECRET_NAME"}
	File    string // {"file": "name"} under Options.SecretsDir
}

func (h *headerValue) UnmarshalJSON(b []byte) error {
	if len(bytes.TrimSpace(b)) > 0 && bytes.TrimSpace(b)[0] == '"' {
		return json.Unmarshal(b, &h.Literal)
	}
	var ref struct {
		Env  string `json:"env"`
		File string `json:"file"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ref); err != nil {
		return errors.New(`headers: a value is a string or a reference {"env": "NAME"} or {"file": "name"}`)
	}
	if (ref.Env == "") == (ref.File == "") {
		return errors.New(`headers: a reference names exactly one of "env" and "file"`)
	}
	h.Env, h.File = ref.Env, ref.File
	return nil
}

func (h headerValue) isRef() bool { return h.Env != "" || h.File != "" }

// credentialWords mark a header name that carries a credential.
var credentialWords = []string{"auth", "key", "token", "secret", "password", "passwd", "cookie", "credential", "session", "signature"}

// carriesCredential reports whether a header named name is a credential
// (Authorization, Cookie, X-Api-Key, …), which may only be passed by
// reference.
func carriesCredential(name string) bool {
	n := strings.ToLower(name)
	for _, w := range credentialWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// checkRef refuses a reference of the wrong shape. Whether it resolves is
// checked at registration (CheckSecrets) and at every call, not when a
// process rebuilds the tool from the log, which may run elsewhere.
func checkRef(h headerValue, opts Options) error {
	switch {
	case h.Env != "":
		if !strings.HasPrefix(h.Env, SecretEnvPrefix) || len(h.Env) == len(SecretEnvPrefix) {
			return fmt.Errorf("env %q: a secret's variable name must start with %s", h.Env, SecretEnvPrefix)
		}
	case h.File != "":
		if opts.SecretsDir == "" {
			return errors.New("file references need a secrets directory (CMEM_SECRETS_DIR) on the server")
		}
		if h.File != filepath.Base(h.File) || strings.HasPrefix(h.File, ".") {
			return fmt.Errorf("file %q: a plain file name inside the secrets directory", h.File)
		}
	}
	return nil
}

// CheckSecrets reports whether every secret an http resource's config
// references can be read now; other kinds have none. Registration calls
// it so that a resource that could never authenticate is refused.
func CheckSecrets(kind string, config json.RawMessage, opts Options) error {
	if kind != "http" || len(config) == 0 {
		return nil
	}
	opts = opts.WithDefaults()
	var cfg struct {
		Headers map[string]headerValue `json:"headers"`
	}
	if err := json.Unmarshal(config, &cfg); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	var errs []error
	for name, h := range cfg.Headers {
		if err := checkRef(h, opts); err != nil {
			errs = append(errs, fmt.Errorf("headers[%q]: %w", name, err))
		} else if _, err := resolve(h, opts); err != nil {
			errs = append(errs, fmt.Errorf("headers[%q]: %w", name, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %w", ErrConfig, errors.Join(errs...))
	}
	return nil
}

// resolve reads a header's value: the literal, or the secret it names
// (checked by checkRef). Errors name the reference, never a value.
func resolve(h headerValue, opts Options) (string, error) {
	switch {
	case h.Env != "":
		v, ok := opts.LookupEnv(h.Env)
		if !ok {
			return "", fmt.Errorf("env %q is not set in the server's environment", h.Env)
		}
		return checkSecret(v, "env "+h.Env)
	case h.File != "":
		b, err := readSecretFile(opts.SecretsDir, h.File)
		if err != nil {
			return "", err
		}
		return checkSecret(strings.TrimRight(string(b), "\r\n"), "file "+h.File)
	}
	return h.Literal, nil
}

func checkSecret(v, where string) (string, error) {
	if strings.ContainsAny(v, "\r\n\x00") {
		return "", fmt.Errorf("%s: the secret contains CR, LF or NUL", where)
	}
	return v, nil
}

// noCredentialsAcrossHosts wraps next (nil: the default of at most 10
// redirects) so that a redirect never sends a Referer, and a redirect to
// another host or to plain http drops every header but the framing ones:
// the resource's credentials are for the host it names.
func noCredentialsAcrossHosts(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		req.Header.Del("Referer")
		first := via[0].URL
		if req.URL.Host != first.Host || (first.Scheme == "https" && req.URL.Scheme != "https") {
			for name := range req.Header {
				switch name {
				case "User-Agent", "Content-Type", "Accept":
				default:
					req.Header.Del(name)
				}
			}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}
