package cmd

import (
	"errors"
	"fmt"
	"io"
)

// outputWriter remembers the first error its writer returned, so that a
// renderer's failure can be told apart: the output could not be written
// (a full disk, a closed pipe; exit 2, the input was fine but the run
// could not report), or the renderer failed on its own (an encoding
// failure, gwsim's fault: exit 3).
type outputWriter struct {
	w   io.Writer
	err error
	// yamlLibrary and jsonLibrary send data documents to the libraries
	// instead of the fast encoders (the fast-path escape hatch, see
	// newOutput).
	yamlLibrary, jsonLibrary bool
}

// libraryEncoders reports which encoders w asks for: the libraries' when
// it is an outputWriter made with those fast paths off.
func libraryEncoders(w io.Writer) (yamlLib, jsonLib bool) {
	if o, ok := w.(*outputWriter); ok {
		return o.yamlLibrary, o.jsonLibrary
	}
	return false, false
}

func (o *outputWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

// Flush flushes the writer underneath when it buffers.
func (o *outputWriter) Flush() error {
	err := flushOut(o.w)
	if err != nil && o.err == nil {
		o.err = err
	}
	return err
}

// outputError classifies err, returned while rendering to w (named where
// in messages): errors that already carry an exit code pass, a write error
// is exit 2 without the usage hint, anything else exit 3.
func outputError(w *outputWriter, where string, err error) error {
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		return err
	case w.err != nil:
		return writeError(where, w.err)
	}
	return bugError(fmt.Errorf("rendering %s: %w", where, err))
}

// writeError reports output that could not be written: exit 2, an I/O
// error like an unreadable input, not a mistake in how gwsim was called.
func writeError(where string, err error) error {
	return &exitError{code: exitUsage, err: fmt.Errorf("writing %s: %w", where, err)}
}
