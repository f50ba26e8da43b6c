package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/gwsim/gwsim/internal/crash"
	"github.com/gwsim/gwsim/internal/fastpath"
	"github.com/gwsim/gwsim/internal/safetext"
	"github.com/gwsim/gwsim/offline"
)

// Streams are the CLI's standard input, output and error.
type Streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// placeholders, set by ExecuteWith, is filled by the pipeline with the
	// Flux variables the writers show again as ${NAME}.
	placeholders *placeholders
	// fastpath, set by ExecuteWith, is the run's fast-path mode.
	fastpath *fastpathChoice
}

// Env holds what a test may swap out underneath the CLI.
type Env struct {
	// Store builds the object store the offline controller runs against;
	// nil means the default indexed store.
	Store offline.StoreFactory
	// SourceRoot, when set, is the directory the CI formats (SARIF,
	// GitHub, GitLab) locate files against, instead of the repository
	// root found from the inputs; golden tests pin it so that their files
	// do not depend on where the checkout sits.
	SourceRoot string
	// Columns is the width of the terminal stdout is, 0 when it is none:
	// check's text output wraps at it. ExecuteWith finds it when it is 0;
	// tests set it to stand for a terminal.
	Columns int
	// Fastpath is the GWSIM_FASTPATH setting (package internal/fastpath):
	// "" or "on", "off", or the fast paths to turn off.
	Fastpath string
}

// Execute runs gwsim with args (without the program name) and returns the
// exit code: 0 clean, 1 findings, 2 usage or input error, 3 a bug in gwsim.
func Execute(args []string, streams Streams) int {
	return ExecuteWith(args, streams, Env{Fastpath: os.Getenv(fastpath.EnvVar)})
}

// ExecuteWith is Execute with a chosen environment. It never exits the
// process: a panic, on this goroutine or carried over from a worker (see
// package internal/crash), becomes a "bug:" message with the version and
// the stack, and exit 3.
func ExecuteWith(args []string, streams Streams, env Env) (code int) {
	defer func() {
		if r := recover(); r != nil {
			stack := debug.Stack()
			if p, ok := r.(*crash.Panic); ok {
				r, stack = p.Value, p.Stack
			}
			fmt.Fprintf(streams.Err, "gwsim: bug: panic: %v\n%s\n%s", r, bugReport(), stack)
			code = exitBug
		}
	}()
	if env.Columns == 0 {
		env.Columns = terminalColumns(streams.Out) // before the writers below hide the file
	}
	// stdout is buffered: renderers write many small pieces (a table
	// row, a YAML scalar), and one write per piece costs more than the
	// rendering itself on large outputs. stderr stays unbuffered.
	streams.placeholders = &placeholders{}
	streams.fastpath = &fastpathChoice{setting: env.Fastpath}
	outVars := &placeholderWriter{w: streams.Out, p: streams.placeholders}
	errVars := &placeholderWriter{w: streams.Err, p: streams.placeholders}
	streams.Err = errVars
	defer errVars.Flush()
	out := bufio.NewWriterSize(outVars, 64<<10)
	streams.Out = out
	prof := &profiler{}
	root := newRootCmd(streams, env, prof)
	root.SetArgs(args)
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.Err)
	c, err := root.ExecuteContextC(context.Background())
	if perr := prof.stop(streams.Err); perr != nil && err == nil {
		err = perr
	}
	if ferr := errors.Join(out.Flush(), outVars.Flush()); ferr != nil && err == nil {
		err = writeError("output", ferr)
	}
	return exitCode(streams.Err, c.CommandPath(), err)
}

// flushOut writes out what stdout holds, if it is buffered, before the
// command writes to stderr: on a terminal, where both streams meet, a
// summary on stderr must follow the output it summarises.
func flushOut(w io.Writer) error {
	if f, ok := w.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

// exitCode prints err, if it has anything left to say, and maps it to an
// exit code. Errors that are not exitErrors come from cobra (unknown command
// or flag) or from writing output, and both are exit 2.
func exitCode(w io.Writer, path string, err error) int {
	if err == nil {
		return exitOK
	}
	// Messages quote what they are about (a path, a flag's value), which
	// may come from a repository: they are printed as one visible line.
	var ee *exitError
	if !errors.As(err, &ee) {
		fmt.Fprintf(w, "gwsim: error: %s\nRun '%s --help' for usage.\n", safetext.Visible(err.Error()), path)
		return exitUsage
	}
	if ee.bug {
		fmt.Fprintf(w, "gwsim: bug: %s\n%s", safetext.Visible(ee.err.Error()), bugReport())
		return ee.code
	}
	if ee.err != nil {
		fmt.Fprintf(w, "gwsim: error: %s\n", safetext.Visible(ee.err.Error()))
		if ee.usage {
			fmt.Fprintf(w, "Run '%s --help' for usage.\n", path)
		}
	}
	return ee.code
}
