package benchfig

import (
	"syscall"
	"time"
)

// ProcessCPU is the processor time (user and system, every thread) this
// process has used so far. A benchmark on a machine others load reads it
// before and after each phase: CPU time is what a phase costs, wall time
// also holds the waits for cores other processes had.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
