package clickhousetest

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat times: 100 on every
// Linux that Go supports.
const clockTicks = 100

// CPU is the processor time (user and system) the server process has used
// since it started. Benchmarks on a shared machine compare CPU time, which
// other processes' load does not inflate, next to wall time.
func (s *Server) CPU() (time.Duration, error) {
	s.mu.Lock()
	cmd := s.cmd
	s.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return 0, errors.New("clickhousetest: server not running")
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
	if err != nil {
		return 0, fmt.Errorf("clickhousetest: server CPU: %w", err)
	}
	// The command name (field 2) may hold spaces; utime and stime are
	// fields 14 and 15, counted after its closing parenthesis.
	i := strings.LastIndexByte(string(raw), ')')
	if i < 0 {
		return 0, errors.New("clickhousetest: server CPU: malformed stat")
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("clickhousetest: server CPU: short stat")
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("clickhousetest: server CPU: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}
