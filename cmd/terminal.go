package cmd

import (
	"io"

	"golang.org/x/term"
)

// terminalColumns is the width of the terminal w writes to, or 0 when w
// is not a terminal (a pipe, a file, a CI log, a test's buffer).
func terminalColumns(w io.Writer) int {
	f, ok := w.(interface{ Fd() uintptr })
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return cols
}
