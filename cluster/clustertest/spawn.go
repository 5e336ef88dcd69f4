package clustertest

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// spawn starts cmd so that the kernel kills it when the test binary dies
// (a test timeout's panic, a kill of `go test`): orphaned nats-server and
// cmem processes would otherwise keep their ports and the CPU, and slow or
// hang the next run. Pdeathsig fires when the *thread* that forked the
// child exits, so every child is forked from one thread locked for the
// life of the process.
func spawn(cmd *exec.Cmd) error {
	spawnOnce.Do(func() {
		spawns = make(chan spawnRequest)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the process
			for r := range spawns {
				r.err <- r.cmd.Start()
			}
		}()
	})
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	r := spawnRequest{cmd: cmd, err: make(chan error, 1)}
	spawns <- r
	return <-r.err
}

type spawnRequest struct {
	cmd *exec.Cmd
	err chan error
}

var (
	spawnOnce sync.Once
	spawns    chan spawnRequest
)
