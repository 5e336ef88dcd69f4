// Package childproc starts the server processes tests run (nats-server,
// cmem, clickhouse-server) so that they die with the test binary.
package childproc

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// Start starts cmd so that the kernel kills it (SIGKILL) when the test
// binary dies — a test timeout's panic, a kill of `go test` — instead of
// leaving it running with its ports and CPU to slow or hang the next run.
// Pdeathsig fires when the *thread* that forked the child exits, so every
// child is forked from one thread locked for the life of the process.
func Start(cmd *exec.Cmd) error {
	once.Do(func() {
		requests = make(chan request)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the process
			for r := range requests {
				r.err <- r.cmd.Start()
			}
		}()
	})
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	r := request{cmd: cmd, err: make(chan error, 1)}
	requests <- r
	return <-r.err
}

type request struct {
	cmd *exec.Cmd
	err chan error
}

var (
	once     sync.Once
	requests chan request
)
