// Command cmem runs Collaborative Memory and talks to a running one.
//
//	cmem serve      everything in one process on embedded defaults
//	cmem gateway    the HTTP gateway and NATS ingress, against CMEM_NATS_URL
//	cmem worker     the query pipeline's workers, against CMEM_NATS_URL
//	cmem mcp        an MCP server acting as the user whose token is CMEM_TOKEN
//	cmem user|agent|resource|grant|revoke|access|fragment|memory|query|policy|audit
//	                one command per API call of a running cmem
//
// Configuration comes from flags, which default to the CMEM_* environment
// variables (see README.md).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `usage: cmem <command> [flags]

run cmem:
  serve     run everything in one process (embedded NATS unless CMEM_NATS_URL is set)
  gateway   run the HTTP gateway and NATS ingress against the NATS cluster at CMEM_NATS_URL
  worker    run the query pipeline's workers against the NATS cluster at CMEM_NATS_URL
  mcp       serve MCP (stdio or streamable HTTP) as the user whose token is CMEM_TOKEN

talk to a running cmem (CMEM_URL, default http://127.0.0.1:8080):
  user      add users; rotate or revoke a token, deactivate, reactivate, erase a user
  agent     add agents (admin)
  resource  add resources: knowledge bases, HTTP tools, computation (admin)
  grant     grant user-agent or agent-resource, optionally until a time (admin)
  revoke    revoke user-agent or agent-resource (admin)
  import    import relationships as grants through a mapping (import relationships FILE) (admin)
  turn      say one turn of a conversation: cmem scopes it and applies the governance it carries
  batch     run many registrations, grants, revokes and fragment writes from a JSONL file, all or nothing a request
  access    what a user may use now, at a time or at a revision
  fragment  write or delete a memory fragment (user)
  memory    read the memory view of an agent for a query (user)
  query     ask a question and wait, get a query's state, list queries (user)
  me        who the token stands for
  access-graph   every user's agents and resources (admin; a user: her own)
  grant-changes  grants and revokes between two revisions or times
  usage     queries, fragments and reads per user
  events    the log's events you may see, as they happen (one JSON line each)
  digest    a hash of the access graph and fragments at a revision (admin)
  policy    set or list write, read and provenance policies (admin)
  audit     ask the audit trail (visible, reads, violations, metrics) (admin)
  doctor    what is running, which backends answer, and what to fix
  health    exit 0 when a cmem (or a worker's -metrics-addr) answers /healthz
  version   print the version of this binary
  scenario  run one of the paper's three experiments (1|2|3) and write its report and charts
  bench     run a public benchmark (locomo, gatemem) through the HTTP API and print its figures

Run 'cmem <command> -h' for the flags of a command.
`

// commands maps a command name to its runner; each writes its answer to out.
var commands = map[string]func(args []string, out io.Writer) error{
	"audit":    auditCmd,
	"policy":   policyCmd,
	"user":     userCmd,
	"agent":    agentCmd,
	"resource": resourceCmd,
	"grant":    grantCmd(true),
	"revoke":   grantCmd(false),
	"batch":    batchCmd,
	"access":   accessCmd,
	"fragment": fragmentCmd,
	"memory":   memoryCmd,
	"query":    queryCmd,
	"scenario": scenarioCmd,
	"import":   importCmd,
	"turn":     turnCmd,
	"bench":    benchCmd,
	"mcp":      mcpCmd,
	"version":  versionCmd,
	"health":   healthCmd,
	// The reads behind the console (reads.go).
	"me":            meCmd,
	"access-graph":  accessGraphCmd,
	"grant-changes": grantChangesCmd,
	"usage":         usageCmd,
	"digest":        digestCmd,
	"events":        eventsCmd,
	"doctor":        doctorCmd,
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	os.Exit(dispatch(os.Args[1], os.Args[2:], os.Stdout, os.Stderr))
}

// dispatch runs one command and returns the process exit code: 0 on success
// and on -h, 1 when the command failed, 2 for an unknown command.
func dispatch(cmd string, args []string, out, errOut io.Writer) int {
	var err error
	switch cmd {
	case "serve":
		err = run(args, "serve", false)
	case "gateway":
		err = run(args, "gateway", true)
	case "worker":
		err = run(args, "worker", true)
	case "-h", "--help", "help":
		_, _ = fmt.Fprint(out, usage)
	default:
		c, ok := commands[cmd]
		if !ok {
			_, _ = fmt.Fprintf(errOut, "cmem: unknown command %q\n\n%s", cmd, usage)
			return 2
		}
		err = c(args, out)
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		_, _ = fmt.Fprintln(errOut, "cmem:", err)
		return 1
	}
	return 0
}
