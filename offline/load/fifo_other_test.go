//go:build !unix

package load

import "errors"

// mkfifo makes a FIFO at path, where the system has them.
func mkfifo(string) error { return errors.New("no FIFOs on this system") }
