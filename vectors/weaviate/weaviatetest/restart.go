package weaviatetest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// Kill stops the server with SIGKILL (its whole process group) and keeps
// its data and ports for Restart: an outage, not a teardown. It is an
// error for an external server.
func (s *Server) Kill() error {
	if s.cmd == nil || s.cmd.Process == nil {
		return errors.New("weaviatetest: not a server this process started")
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.exited
	return nil
}

// Restart starts a killed server again on the same ports and data
// directory, appending to its log, and waits until it is ready (at most
// ReadyTimeout).
func (s *Server) Restart(ctx context.Context) error {
	if s.cmd == nil {
		return errors.New("weaviatetest: not a server this process started")
	}
	select {
	case <-s.exited:
	default:
		return errors.New("weaviatetest: Restart of a server that is running")
	}
	logFile, err := os.OpenFile(s.logPath, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("weaviatetest: %w", err)
	}
	defer func() { _ = logFile.Close() }()
	cmd := exec.Command(s.cmd.Path, s.cmd.Args[1:]...)
	cmd.Env = s.cmd.Env
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("weaviatetest: restart: %w", err)
	}
	s.cmd, s.exited = cmd, make(chan struct{})
	exited := s.exited
	go func() { _ = cmd.Wait(); close(exited) }()
	if err := s.waitReady(ctx); err != nil {
		return fmt.Errorf("weaviatetest: after a restart: %w; last lines of its log:\n%s", err, s.LogTail(40))
	}
	return nil
}
