package clustertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"syscall"
	"time"
)

// stall says where a process that is not ready in time is stuck, then
// stops it: the reason its /healthz gives (the start step it waits on),
// and the stacks of all its goroutines, which the Go runtime prints on
// SIGQUIT into the output the failure shows. A start that hangs without
// a log line is otherwise a failure with nothing to go on.
func (p *Proc) stall(exited <-chan struct{}) string {
	reason := "healthz: no answer"
	c := http.Client{Timeout: 5 * time.Second}
	if resp, err := c.Get(p.Base() + "/healthz"); err == nil {
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		_ = resp.Body.Close()
		reason = fmt.Sprintf("healthz %d: %v", resp.StatusCode, body)
	}
	if pid := p.Pid(); pid != 0 {
		_ = syscall.Kill(pid, syscall.SIGQUIT)
		select { // the dump is written before the process exits
		case <-exited:
		case <-time.After(20 * time.Second):
		}
	}
	p.Kill()
	return reason
}
