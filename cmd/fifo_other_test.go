//go:build !unix

package cmd

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this system") }
