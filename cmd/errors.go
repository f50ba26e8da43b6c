package cmd

import (
	"fmt"

	"github.com/gwsim/gwsim/translate/diag"
)

// Exit codes shared by every command.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
)

// exitError ends a command with a given exit code. A nil err means the
// reason was already printed (findings, load errors); otherwise Execute
// prints it, with a pointer to --help when usage is set.
type exitError struct {
	code  int
	err   error
	usage bool
	// inputErrors are the load errors behind an exit 2; check renders them
	// in its output format too, so that -o json says why it failed.
	inputErrors []diag.Finding
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErrorf reports a mistake in how gwsim was called (exit 2).
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...), usage: true}
}
