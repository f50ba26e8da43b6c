package cmd

import (
	"fmt"

	"github.com/gwsim/gwsim/diag"
)

// Exit codes shared by every command.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
	// exitBug is for gwsim's own failures: a panic, or an error from the
	// store or controller that no input should cause.
	exitBug = 3
	// exitNotKnown is explain's: the request goes through an object whose
	// effect gwsim does not simulate, so the answer is not known.
	exitNotKnown = 4
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
	// bug marks a fault of gwsim's (exit 3), printed as one.
	bug bool
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

// bugError ends a run that failed through a fault of gwsim's rather than
// of its input (exit 3).
func bugError(err error) error {
	return &exitError{code: exitBug, err: err, bug: true}
}

// bugReport is what follows a bug's message: that it is one, and the
// version to report it against.
func bugReport() string {
	return "this is a bug in gwsim; please report it with the input that causes it and this version:\n" + versionString() + "\n"
}
