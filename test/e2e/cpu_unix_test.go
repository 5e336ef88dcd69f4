//go:build unix

package e2e_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) of this process so far:
// the node, its embedded NATS server and the benchmark's clients. On a
// machine shared with other work, CPU per operation is the figure that
// does not move with the load; throughput does.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
