package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cmem/cmem/clients/httpclient"
	"github.com/cmem/cmem/domain"
)

// call is what every API command shares: where cmem is, who asks, and how
// the answer is printed.
type call struct {
	fs    *flag.FlagSet
	out   io.Writer
	base  *string
	token *string
	get   *string
	// asUser: the token defaults to CMEM_TOKEN (a user's) before the admin's.
	asUser bool
	// existOK: a 409 (the id exists) is reported and is not a failure, so a
	// script that registers things can run again on existing data.
	existOK *bool
	// outFile: -out, where the answer goes instead of out (allowOutFile).
	outFile *string
}

// allowExisting adds -exist-ok to a registering command.
func (c *call) allowExisting() {
	c.existOK = c.fs.Bool("exist-ok", false, "an id that already exists is not an error (for scripts that run again)")
}

// newCall returns a flag set named name with -url, -token and -get; usage is
// printed above the flags on -h.
func newCall(name, usage string, out io.Writer, asUser bool) *call {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		_, _ = fmt.Fprintf(out, "usage: cmem %s\n\nflags:\n", usage)
		fs.PrintDefaults()
	}
	c := &call{fs: fs, out: out, asUser: asUser}
	c.base = fs.String("url", env("CMEM_URL", httpclient.DefaultURL), "API base URL (CMEM_URL)")
	tokenHelp := "admin token (default CMEM_ADMIN_TOKEN, else $CMEM_DATA/admin.token)"
	if asUser {
		tokenHelp = "user token (default CMEM_TOKEN, else the admin token)"
	}
	c.token = fs.String("token", "", tokenHelp)
	c.get = fs.String("get", "", "print only this top-level field of the answer (e.g. token, revision, answer)")
	return c
}

// parse parses flags and positional arguments in any order and checks that
// exactly want positionals were given (want < 0: any number).
func (c *call) parse(args []string, want int) ([]string, error) {
	var pos []string
	for {
		if err := c.fs.Parse(args); err != nil {
			return nil, err
		}
		args = c.fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if want >= 0 && len(pos) != want {
		c.fs.Usage()
		return nil, fmt.Errorf("%s: want %d argument(s), got %d", c.fs.Name(), want, len(pos))
	}
	return pos, nil
}

// do calls the API and prints the answer.
func (c *call) do(method, path string, body any, want int) error {
	raw, err := c.raw(method, path, body, want)
	if c.existOK != nil && *c.existOK && errors.Is(err, domain.ErrConflict) {
		// Asked for: the id exists, which is what the script wanted.
		return nil
	}
	if err != nil {
		return err
	}
	return c.printTo(raw)
}

// raw calls the API and returns the body of an answer whose status is one
// of want.
func (c *call) raw(method, path string, body any, want ...int) ([]byte, error) {
	tok, err := c.tokenValue()
	if err != nil {
		return nil, err
	}
	return callAPI(*c.base, tok, method, path, body, want...)
}

func (c *call) tokenValue() (string, error) {
	if *c.token != "" {
		return *c.token, nil
	}
	if c.asUser {
		if t := os.Getenv("CMEM_TOKEN"); t != "" {
			return t, nil
		}
	}
	return adminTokenFor("")
}

// print writes raw indented, or only the field -get names (a string
// unquoted), so shells can capture it: ALICE=$(cmem user add alice -get token).
func (c *call) print(raw []byte) error {
	if *c.get != "" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("-get %s: the answer is not an object: %w", *c.get, err)
		}
		v, ok := m[*c.get]
		if !ok {
			return fmt.Errorf("-get %s: the answer has no such field: %s", *c.get, raw)
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			_, err := fmt.Fprintln(c.out, s)
			return err
		}
		_, err := fmt.Fprintf(c.out, "%s\n", v)
		return err
	}
	var buf bytes.Buffer
	raw = bytes.TrimSpace(raw)
	if json.Indent(&buf, raw, "", "  ") != nil {
		buf.Reset()
		buf.Write(raw)
	}
	buf.WriteByte('\n')
	_, err := c.out.Write(buf.Bytes())
	return err
}

// subcommand splits "verb args…" and answers -h for the group.
func subcommand(args []string, usage string, out io.Writer) (string, []string, error) {
	if len(args) == 0 {
		_, _ = fmt.Fprint(out, usage)
		return "", nil, fmt.Errorf("missing subcommand")
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		_, _ = fmt.Fprint(out, usage)
		return "", nil, flag.ErrHelp
	}
	return args[0], args[1:], nil
}

// soleVerb is subcommand for a group with one verb (cmem user add, …):
// any other verb is an error that shows usage.
func soleVerb(group, verb string, args []string, usage string, out io.Writer) ([]string, error) {
	v, args, err := subcommand(args, usage, out)
	if err == nil && v != verb {
		err = fmt.Errorf("unknown %s command %q\n\n%s", group, v, usage)
	}
	return args, err
}

// adminCall is what the audit and policy commands share; they print
// their own tables, so they do not use call. It holds the verb, the
// arguments after it and a flag set named "<command> <verb>" with -url and
// -token (an admin's).
type adminCall struct {
	verb        string
	args        []string
	fs          *flag.FlagSet
	base, token *string
}

// newAdminCall splits off the verb. With none, or a help word, it prints
// usage to out and returns nil and the write's error: the command is done.
func newAdminCall(command, usage string, args []string, out io.Writer) (*adminCall, error) {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		_, err := fmt.Fprint(out, usage)
		return nil, err
	}
	fs := flag.NewFlagSet(command+" "+args[0], flag.ContinueOnError)
	fs.SetOutput(out)
	return &adminCall{verb: args[0], args: args[1:], fs: fs,
		base:  fs.String("url", env("CMEM_URL", httpclient.DefaultURL), "API base URL (CMEM_URL)"),
		token: fs.String("token", "", "admin token (default CMEM_ADMIN_TOKEN or $CMEM_DATA/admin.token)"),
	}, nil
}

// list splits a comma-separated flag value; empty gives nil.
func list(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
