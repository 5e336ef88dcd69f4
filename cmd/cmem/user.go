package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
)

const userUsage = `usage: cmem user add ID [-role user|admin] [-get token] [-out FILE]
       cmem user rotate-token ID [-get token] [-out FILE]
       cmem user revoke-token ID
       cmem user deactivate ID
       cmem user reactivate ID
       cmem user erase ID

  add           register a user; the answer holds its token, shown only this once
  rotate-token  give the user a new token; the old one stops working (admin or the user)
  revoke-token  the user's token stops working, with no new one (admin or the user)
  deactivate    the user can do nothing until reactivated; her memory stays (admin)
  reactivate    undo deactivate (admin)
  erase         forget the user: her content can no longer be decrypted anywhere (admin or the user)
`

// userVerbs maps each `cmem user` verb but add to its API call: the
// method, the path under /v1/users/{id} and the status it answers.
var userVerbs = map[string]struct {
	method, suffix string
	status         int
}{
	"rotate-token": {http.MethodPost, "/token", http.StatusCreated},
	"revoke-token": {http.MethodDelete, "/token", http.StatusOK},
	"deactivate":   {http.MethodPost, "/deactivate", http.StatusOK},
	"reactivate":   {http.MethodPost, "/reactivate", http.StatusOK},
	"erase":        {http.MethodDelete, "", http.StatusOK},
}

// userCmd runs `cmem user add|rotate-token|revoke-token|deactivate|reactivate|erase`.
func userCmd(args []string, out io.Writer) error {
	verb, args, err := subcommand(args, userUsage, out)
	if err != nil {
		return err
	}
	if verb == "add" {
		c := newCall("user add", "user add ID [-role user|admin] [-get token] [-out FILE]", out, false)
		role := c.fs.String("role", "user", "user or admin")
		c.allowOutFile()
		pos, err := c.parse(args, 1)
		if err != nil {
			return err
		}
		return c.do(http.MethodPost, "/v1/users", map[string]string{"id": pos[0], "role": *role}, http.StatusCreated)
	}
	v, ok := userVerbs[verb]
	if !ok {
		return fmt.Errorf("unknown user command %q\n\n%s", verb, userUsage)
	}
	name := "user " + verb
	c := newCall(name, name+" ID", out, true)
	if verb == "rotate-token" {
		c.allowOutFile()
	}
	pos, err := c.parse(args, 1)
	if err != nil {
		return err
	}
	return c.do(v.method, "/v1/users/"+url.PathEscape(pos[0])+v.suffix, nil, v.status)
}

// pathCommand runs a command with one positional argument that is the
// {id} of path (a %s), answering status.
func pathCommand(name, usage string, out io.Writer, args []string, method, path string, status int) error {
	c := newCall(name, usage, out, true)
	pos, err := c.parse(args, 1)
	if err != nil {
		return err
	}
	return c.do(method, fmt.Sprintf(path, url.PathEscape(pos[0])), nil, status)
}
