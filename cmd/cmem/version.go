package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// version is set at build time: go build -ldflags "-X main.version=v1.2.3".
var version = ""

// versionString is the version set at build time, else the module version
// and VCS revision the Go toolchain recorded.
func versionString() string {
	v := version
	info, ok := debug.ReadBuildInfo()
	if !ok {
		if v == "" {
			v = "unknown"
		}
		return v
	}
	if v == "" {
		v = info.Main.Version
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			v += " (" + s.Value + ")"
		}
	}
	return v + " " + info.GoVersion
}

// versionCmd runs `cmem version`.
func versionCmd(args []string, out io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		_, err := fmt.Fprintln(out, "usage: cmem version")
		return err
	}
	_, err := fmt.Fprintln(out, "cmem", versionString())
	return err
}
