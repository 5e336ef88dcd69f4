package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
)

const agentUsage = `usage: cmem agent add ID -description D [-system-prompt P]
`

// agentCmd runs `cmem agent add`.
func agentCmd(args []string, out io.Writer) error {
	args, err := soleVerb("agent", "add", args, agentUsage, out)
	if err != nil {
		return err
	}
	c := newCall("agent add", "agent add ID -description D [-system-prompt P]", out, false)
	desc := c.fs.String("description", "", "what the agent is for (the coordinator routes by it)")
	prompt := c.fs.String("system-prompt", "", "the agent's system prompt")
	c.allowExisting()
	pos, err := c.parse(args, 1)
	if err != nil {
		return err
	}
	return c.do(http.MethodPost, "/v1/agents", map[string]string{"id": pos[0], "description": *desc, "system_prompt": *prompt}, http.StatusCreated)
}

const resourceUsage = `usage: cmem resource add ID -kind K -description D [-config JSON | -config-file FILE]

  kinds: knowledge_base  config {"documents":[{"id","text"}]} or {"path":"under CMEM_DOCUMENT_ROOT"}
         http            config {"url","method","parameters","headers","timeout_ms"}
         computation     no config
`

// resourceCmd runs `cmem resource add`.
func resourceCmd(args []string, out io.Writer) error {
	args, err := soleVerb("resource", "add", args, resourceUsage, out)
	if err != nil {
		return err
	}
	c := newCall("resource add", "resource add ID -kind K -description D [-config JSON | -config-file FILE]", out, false)
	kind := c.fs.String("kind", "", "knowledge_base, http or computation")
	desc := c.fs.String("description", "", "what the resource offers (agents see it)")
	config := c.fs.String("config", "", "the kind's configuration as a JSON object")
	file := c.fs.String("config-file", "", "read the configuration from this JSON file ('-' = stdin)")
	c.allowExisting()
	pos, err := c.parse(args, 1)
	if err != nil {
		return err
	}
	body := map[string]any{}
	raw := []byte(*config)
	if *file != "" {
		if raw, err = readFile(*file); err != nil {
			return err
		}
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &body); err != nil {
			return fmt.Errorf("resource config must be a JSON object: %w", err)
		}
	}
	body["id"], body["kind"], body["description"] = pos[0], *kind, *desc
	return c.do(http.MethodPost, "/v1/resources", body, http.StatusCreated)
}

func readFile(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(name)
}
