package deploy_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// embeddedNATS is the major.minor of the NATS server cmem embeds (go.mod).
func embeddedNATS(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`github.com/nats-io/nats-server/v2 v(\d+\.\d+)\.`).FindSubmatch(b)
	if m == nil {
		t.Fatal("go.mod names no nats-server")
	}
	return string(m[1])
}

// sourceStrings is every quoted cmem_* / CMEM_* string in the Go sources.
func sourceStrings(t *testing.T) map[string]bool {
	t.Helper()
	re := regexp.MustCompile(`"((?:cmem|CMEM)_[A-Za-z0-9_]+)"`)
	found := map[string]bool{}
	err := filepath.WalkDir("..", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || p == filepath.Join("..", "clients", "python")) {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		for _, m := range re.FindAllSubmatch(b, -1) {
			found[string(m[1])] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

type compose struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Build       any               `yaml:"build"`
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
		Volumes     []string          `yaml:"volumes"`
		DependsOn   map[string]struct {
			Condition string `yaml:"condition"`
		} `yaml:"depends_on"`
		Healthcheck *struct {
			Test []string `yaml:"test"`
		} `yaml:"healthcheck"`
	} `yaml:"services"`
	Volumes map[string]any `yaml:"volumes"`
}

// stateful names where each kind of service keeps its state.
var stateful = map[string]string{"nats": "/data", "weaviate": "/var/lib/weaviate", "clickhouse": "/var/lib/clickhouse", "cmem": "/data"}

func TestCompose(t *testing.T) {
	b, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	known := sourceStrings(t)
	nats := embeddedNATS(t)
	var natsNodes int
	for name, s := range c.Services {
		kind := strings.TrimRight(name, "-0123456789")
		if s.Build != nil {
			kind = "cmem"
		}
		if s.Image == "" {
			t.Errorf("%s: no image", name)
		} else if strings.HasSuffix(s.Image, ":latest") || !strings.Contains(s.Image, ":") {
			t.Errorf("%s: image %q is not pinned", name, s.Image)
		}
		if kind == "nats" {
			natsNodes++
			if !strings.HasPrefix(s.Image, "nats:"+nats) {
				t.Errorf("%s: image %s, want NATS %s like the embedded server", name, s.Image, nats)
			}
			if !slices.Contains(s.Command, "-m") || !slices.Contains(s.Command, "--name") {
				t.Errorf("%s: command %v lacks the monitoring port or the server name", name, s.Command)
			}
		}
		if s.Healthcheck == nil || len(s.Healthcheck.Test) < 2 {
			t.Errorf("%s: no health check", name)
		}
		if dir := stateful[kind]; dir != "" {
			ok := false
			for _, v := range s.Volumes {
				parts := strings.Split(v, ":")
				if len(parts) >= 2 && parts[1] == dir {
					ok = true
					if _, declared := c.Volumes[parts[0]]; !declared {
						t.Errorf("%s: volume %s is not declared", name, parts[0])
					}
				}
			}
			if !ok {
				t.Errorf("%s: no volume on %s, where it keeps its state", name, dir)
			}
		}
		for dep, d := range s.DependsOn {
			if d.Condition != "service_healthy" {
				t.Errorf("%s: depends on %s without waiting for it to be healthy", name, dep)
			}
			if _, ok := c.Services[dep]; !ok {
				t.Errorf("%s: depends on unknown service %s", name, dep)
			}
		}
		if kind == "cmem" {
			if len(s.DependsOn) == 0 {
				t.Errorf("%s: starts without waiting for NATS, Weaviate and ClickHouse", name)
			}
			for k, v := range s.Environment {
				if strings.HasPrefix(k, "CMEM_") && !known[k] {
					t.Errorf("%s: sets %s, which cmem never reads", name, k)
				}
				if k == "CMEM_CLICKHOUSE_DSN" && !regexp.MustCompile(`^clickhouse://cmem:\$\{CLICKHOUSE_PASSWORD[^}]*\}@`).MatchString(v) {
					t.Errorf("%s: DSN %s has no password (current ClickHouse refuses a passwordless user from the network)", name, v)
				}
			}
		}
		if kind == "clickhouse" && s.Environment["CLICKHOUSE_PASSWORD"] == "" {
			t.Errorf("clickhouse: no password")
		}
	}
	if natsNodes != 3 {
		t.Errorf("%d NATS nodes, want a 3-node cluster", natsNodes)
	}
}

func TestKubernetes(t *testing.T) {
	files, err := filepath.Glob("k8s/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	compose, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	known := sourceStrings(t)
	nats := embeddedNATS(t)
	secretKeys := map[string]bool{"admin-token": true, "nats-password": true, "clickhouse-password": true}
	kinds := map[string]int{}
	configMaps := map[string]bool{}
	var podLabels []map[string]string
	var services []map[string]any
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		for {
			var doc map[string]any
			if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			kind, _ := doc["kind"].(string)
			meta, _ := doc["metadata"].(map[string]any)
			name, _ := meta["name"].(string)
			if doc["apiVersion"] == nil || kind == "" || name == "" {
				t.Errorf("%s: a document without apiVersion, kind or metadata.name", f)
				continue
			}
			if kind != "Namespace" && meta["namespace"] != "cmem" {
				t.Errorf("%s: %s/%s is not in namespace cmem", f, kind, name)
			}
			kinds[kind]++
			switch kind {
			case "ConfigMap":
				configMaps[name] = true
			case "Service":
				services = append(services, doc)
			case "StatefulSet", "Deployment":
				spec := doc["spec"].(map[string]any)
				tmpl := spec["template"].(map[string]any)
				labels := map[string]string{}
				for k, v := range tmpl["metadata"].(map[string]any)["labels"].(map[string]any) {
					labels[k] = v.(string)
				}
				podLabels = append(podLabels, labels)
				checkPod(t, f+": "+kind+"/"+name, spec, tmpl["spec"].(map[string]any), nats, string(compose), known, secretKeys)
			}
		}
	}
	for _, k := range []string{"Namespace", "ConfigMap", "Service", "StatefulSet", "Deployment"} {
		if kinds[k] == 0 {
			t.Errorf("no %s", k)
		}
	}
	for _, s := range services {
		sel := s["spec"].(map[string]any)["selector"].(map[string]any)
		if !slices.ContainsFunc(podLabels, func(l map[string]string) bool {
			for k, v := range sel {
				if l[k] != v {
					return false
				}
			}
			return true
		}) {
			t.Errorf("service %v selects no pod", s["metadata"].(map[string]any)["name"])
		}
	}
	_ = configMaps
}

var varRef = regexp.MustCompile(`\$\(([A-Z_]+)\)`)

func checkPod(t *testing.T, where string, spec, pod map[string]any, nats, compose string, known, secretKeys map[string]bool) {
	t.Helper()
	volumes := map[string]bool{}
	for _, v := range asList(pod["volumes"]) {
		volumes[v.(map[string]any)["name"].(string)] = true
	}
	for _, v := range asList(spec["volumeClaimTemplates"]) {
		volumes[v.(map[string]any)["metadata"].(map[string]any)["name"].(string)] = true
	}
	for _, c := range asList(pod["containers"]) {
		c := c.(map[string]any)
		image, _ := c["image"].(string)
		if strings.HasPrefix(image, "nats:") && !strings.HasPrefix(image, "nats:"+nats) {
			t.Errorf("%s: image %s, want NATS %s like the embedded server", where, image, nats)
		}
		if image != "cmem:local" && !strings.Contains(compose, "image: "+image) {
			t.Errorf("%s: image %s differs from docker-compose.yml's", where, image)
		}
		if c["readinessProbe"] == nil || c["livenessProbe"] == nil {
			t.Errorf("%s: container %v lacks a readiness or liveness probe", where, c["name"])
		}
		mounts := asList(c["volumeMounts"])
		if len(mounts) == 0 {
			t.Errorf("%s: no volume for its state", where)
		}
		for _, m := range mounts {
			if n := m.(map[string]any)["name"].(string); !volumes[n] {
				t.Errorf("%s: mounts undeclared volume %s", where, n)
			}
		}
		defined := map[string]bool{}
		for _, e := range asList(c["env"]) {
			e := e.(map[string]any)
			name := e["name"].(string)
			if v, ok := e["value"].(string); ok {
				for _, ref := range varRef.FindAllStringSubmatch(v, -1) {
					if !defined[ref[1]] {
						t.Errorf("%s: %s refers to $(%s), not defined before it", where, name, ref[1])
					}
				}
			}
			if from, ok := e["valueFrom"].(map[string]any); ok {
				if sk, ok := from["secretKeyRef"].(map[string]any); ok && !secretKeys[sk["key"].(string)] {
					t.Errorf("%s: secret key %v is not one the README tells to create", where, sk["key"])
				}
			}
			if strings.HasPrefix(name, "CMEM_") && !known[name] && !strings.HasSuffix(name, "_PASSWORD") {
				t.Errorf("%s: sets %s, which cmem never reads", where, name)
			}
			defined[name] = true
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func TestCmemConfigMapVariablesAreRead(t *testing.T) {
	raw, err := os.ReadFile("k8s/cmem.yaml")
	if err != nil {
		t.Fatal(err)
	}
	known := sourceStrings(t)
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	var doc struct {
		Kind string            `yaml:"kind"`
		Data map[string]string `yaml:"data"`
	}
	if err := dec.Decode(&doc); err != nil || doc.Kind != "ConfigMap" {
		t.Fatalf("first document of k8s/cmem.yaml: %v %q", err, doc.Kind)
	}
	for k := range doc.Data {
		if !known[k] {
			t.Errorf("ConfigMap cmem sets %s, which cmem never reads", k)
		}
	}
}

func TestGrafanaDashboard(t *testing.T) {
	raw, err := os.ReadFile("grafana/cmem-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Title  string `json:"title"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &d); err != nil || len(d.Panels) == 0 {
		t.Fatalf("dashboard: %v, %d panels", err, len(d.Panels))
	}
	known := sourceStrings(t)
	metric := regexp.MustCompile(`cmem_[a-z_]+`)
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			for _, m := range metric.FindAllString(tg.Expr, -1) {
				base := m
				for _, suf := range []string{"_bucket", "_count", "_sum"} {
					base = strings.TrimSuffix(base, suf)
				}
				if !known[base] {
					t.Errorf("panel %q: metric %s is not one cmem exports", p.Title, m)
				}
			}
		}
	}
	// The latency figures issue 13 asked for are on the dashboard.
	for _, want := range []string{"cmem_stage_seconds", "cmem_model_seconds", "cmem_embedding_seconds", "cmem_projection_lag_events"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("dashboard lacks %s", want)
		}
	}
}

func TestDockerfileDataIsWritable(t *testing.T) {
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--chown=65532:65532", "VOLUME /data", "HEALTHCHECK"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
}
