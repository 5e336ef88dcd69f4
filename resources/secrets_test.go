package resources_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cmem/cmem/resources"
)

const secret = "sk-live-0123456789abcdef"

func env(name string) (string, bool) { return secret, name == "CMEM_SECRET_WEATHER" }

// A redirect to another host carries neither the resource's credentials
// nor a Referer (which would carry the subquery); the host the resource
// names gets the secret.
func TestRedirectToAnotherHostCarriesNoCredentials(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]http.Header{}
	record := func(name string) func(http.Header) {
		return func(h http.Header) { mu.Lock(); seen[name] = h.Clone(); mu.Unlock() }
	}
	recOther := record("other")
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recOther(r.Header)
		_, _ = w.Write([]byte("moved here"))
	}))
	defer other.Close()
	recFirst := record("first")
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recFirst(r.Header)
		// 127.0.0.1 vs localhost: another host to the client.
		to := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) + "/landing"
		http.Redirect(w, r, to, http.StatusFound)
	}))
	defer first.Close()
	for _, method := range []string{"GET", "POST"} {
		t.Run(method, func(t *testing.T) {
			cfg := fmt.Sprintf(`{"url":%q,"method":%q,"headers":{"X-Api-Key":{"env":"CMEM_SECRET_WEATHER"},"Authorization":{"env":"CMEM_SECRET_WEATHER"},"X-Trace":"plain"}}`,
				first.URL+"/api", method)
			tool, err := resources.Build("weather", "http", "d", json.RawMessage(cfg), resources.Options{LookupEnv: env})
			if err != nil {
				t.Fatal(err)
			}
			out, err := tool.Call(context.Background(), json.RawMessage(`{"query":"private subquery about alice"}`))
			if err != nil || out != "moved here" {
				t.Fatalf("call: %q %v", out, err)
			}
			mu.Lock()
			defer mu.Unlock()
			if seen["first"].Get("X-Api-Key") != secret || seen["first"].Get("Authorization") != secret {
				t.Fatalf("the resource's own host did not get the secret: %v", seen["first"])
			}
			for name, values := range seen["other"] {
				for _, v := range values {
					if strings.Contains(v, secret) || strings.Contains(v, "subquery") || name == "Referer" || name == "X-Trace" {
						t.Fatalf("the other host got %s: %s", name, v)
					}
				}
			}
		})
	}
}

// A credential in clear is refused with a message that says how to pass
// it, and does not repeat it.
func TestLiteralCredentialHeadersAreRefused(t *testing.T) {
	for _, name := range []string{"Authorization", "Cookie", "X-Api-Key", "X-Auth-Token", "Proxy-Authorization", "X-Client-Secret", "apikey"} {
		cfg := fmt.Sprintf(`{"url":"http://x","headers":{%q:%q}}`, name, secret)
		_, err := resources.Build("h", "http", "", json.RawMessage(cfg), resources.Options{})
		if !errors.Is(err, resources.ErrConfig) || !strings.Contains(err.Error(), `{"env"`) || !strings.Contains(err.Error(), `{"file"`) {
			t.Errorf("%s: %v", name, err)
		}
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("%s: the error repeats the secret: %v", name, err)
		}
	}
	if _, err := resources.Build("h", "http", "", json.RawMessage(`{"url":"http://x","headers":{"Accept-Language":"fr"}}`), resources.Options{}); err != nil {
		t.Errorf("a plain header: %v", err)
	}
}

// References: env names need the CMEM_SECRET_ prefix (the process's own
// credentials are out of reach), files live in the secrets directory, and
// registration checks that each resolves.
func TestSecretReferences(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "weather"), []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := resources.Options{SecretsDir: dir, LookupEnv: env}
	bad := map[string]string{
		`{"env":"OPENAI_API_KEY"}`:           "must start with CMEM_SECRET_",
		`{"env":"CMEM_SECRET_MISSING"}`:      "is not set",
		`{"file":"../etc/passwd"}`:           "plain file name",
		`{"file":"missing"}`:                 "not readable",
		`{"env":"CMEM_SECRET_X","file":"y"}`: "exactly one",
		`{"vault":"x"}`:                      "a value is a string or a reference",
	}
	for ref, want := range bad {
		cfg := json.RawMessage(`{"url":"http://x","headers":{"X-Api-Key":` + ref + `}}`)
		_, err := resources.Build("h", "http", "", cfg, opts)
		if err == nil {
			err = resources.CheckSecrets("http", cfg, opts)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", ref, err, want)
		}
	}
	for _, ref := range []string{`{"env":"CMEM_SECRET_WEATHER"}`, `{"file":"weather"}`} {
		cfg := json.RawMessage(`{"url":"http://x","headers":{"X-Api-Key":` + ref + `}}`)
		if _, err := resources.Build("h", "http", "", cfg, opts); err != nil {
			t.Errorf("%s: %v", ref, err)
		}
		if err := resources.CheckSecrets("http", cfg, opts); err != nil {
			t.Errorf("%s: %v", ref, err)
		}
	}
	if err := resources.CheckSecrets("http", json.RawMessage(`{"url":"http://x","headers":{"X-Api-Key":{"file":"weather"}}}`), resources.Options{}); err == nil {
		t.Error("a file reference resolved without a secrets directory")
	}
}

// A symbolic link in the secrets directory that leads out of it is refused
// at registration and at call time: the target would be sent as a header.
func TestSecretFileLinksMayNotLeaveTheDirectory(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "host-credential")
	if err := os.WriteFile(outside, []byte("outside-value\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "real"), []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"abs": outside, "rel": filepath.Join("..", filepath.Base(filepath.Dir(outside)), "host-credential"), "inside": "real"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("X-Api-Key"))
		_, _ = w.Write([]byte("ok"))
	}))
	defer srv.Close()
	opts := resources.Options{SecretsDir: dir}
	for _, name := range []string{"abs", "rel"} {
		cfg := json.RawMessage(fmt.Sprintf(`{"url":%q,"headers":{"X-Api-Key":{"file":%q}}}`, srv.URL, name))
		err := resources.CheckSecrets("http", cfg, opts)
		if err == nil || !strings.Contains(err.Error(), "leaves the secrets directory") || strings.Contains(err.Error(), "outside-value") {
			t.Errorf("%s: registration: %v", name, err)
		}
		tool, err := resources.Build("h", "http", "", cfg, opts)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tool.Call(context.Background(), json.RawMessage(`{"query":"q"}`)); err == nil {
			t.Errorf("%s: the call went out", name)
		}
	}
	// A link that stays inside the directory is an ordinary reference.
	cfg := json.RawMessage(fmt.Sprintf(`{"url":%q,"headers":{"X-Api-Key":{"file":"inside"}}}`, srv.URL))
	if err := resources.CheckSecrets("http", cfg, opts); err != nil {
		t.Fatalf("inside: %v", err)
	}
	tool, err := resources.Build("h", "http", "", cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tool.Call(context.Background(), json.RawMessage(`{"query":"q"}`)); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != secret {
		t.Fatalf("the server saw %q, want one call with the inside secret", got)
	}
}

// Credentials in a resource URL are refused like credential headers in
// clear, naming the parameter but never the value; plain parameters that
// merely contain "key" are not.
func TestURLCredentialsAreRefused(t *testing.T) {
	for _, u := range []string{"https://bob:" + secret + "@api.example.com/v1", "https://" + secret + "@api.example.com/",
		"https://api.example.com/v1?api_key=" + secret, "https://api.example.com/?token=" + secret, "https://api.example.com/?key=" + secret,
		"https://api.example.com/?q=x&access_token=" + secret, "https://api.example.com/?apiKey=" + secret, "https://api.example.com/?X-Amz-Signature=" + secret,
		"https://api.example.com/?client_secret=" + secret, "https://api.example.com/?sig=" + secret, "https://api.example.com/?password=" + secret} {
		_, err := resources.Build("h", "http", "", json.RawMessage(fmt.Sprintf(`{"url":%q}`, u)), resources.Options{})
		if !errors.Is(err, resources.ErrConfig) || !strings.Contains(err.Error(), "credential") && !strings.Contains(err.Error(), "user information") {
			t.Errorf("%s: %v", u, err)
		}
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("%s: the error repeats the secret: %v", u, err)
		}
	}
	for _, u := range []string{"https://api.example.com/search?keywords=x&monkey=1&lang=fr", "https://api.example.com/"} {
		if _, err := resources.Build("h", "http", "", json.RawMessage(fmt.Sprintf(`{"url":%q}`, u)), resources.Options{}); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}
