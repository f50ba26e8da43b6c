package cmd

import (
	"bytes"
	"io"

	"github.com/gwsim/gwsim/offline/load/flux"
)

// placeholders are the Flux variables of a run left without a value. The
// loader replaced each ${NAME} with a DNS label as long as the reference
// (flux.Placeholder), so that validation and hostname matching take it as
// one unknown label; everything gwsim writes shows the reference again.
// The table is filled once the input is loaded, before anything that
// holds a placeholder is written.
type placeholders struct {
	labels, refs [][]byte
	// longest is the length of the longest label.
	longest int
}

func (p *placeholders) set(names []string) {
	for _, n := range names {
		p.labels = append(p.labels, []byte(flux.Placeholder(n)))
		p.refs = append(p.refs, []byte(flux.Reference(n)))
		p.longest = max(p.longest, len(flux.Placeholder(n)))
	}
}

// placeholderWriter writes through to w with every placeholder label
// written as its reference. A write that ends in what may be the start of
// a label keeps that tail until the next write or flush, so that a label
// cut between two writes is still replaced.
type placeholderWriter struct {
	w       io.Writer
	p       *placeholders
	pending []byte
}

func (pw *placeholderWriter) Write(b []byte) (int, error) {
	if len(pw.p.labels) == 0 && len(pw.pending) == 0 {
		return pw.w.Write(b)
	}
	buf := append(pw.pending, b...)
	keep := pw.partialTail(buf)
	out := buf[:len(buf)-keep]
	for i, l := range pw.p.labels {
		if bytes.Contains(out, l) {
			out = bytes.ReplaceAll(out, l, pw.p.refs[i])
		}
	}
	pw.pending = append([]byte(nil), buf[len(buf)-keep:]...)
	if _, err := pw.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}

// partialTail is the length of the longest end of buf that is a proper
// start of some label.
func (pw *placeholderWriter) partialTail(buf []byte) int {
	for n := min(pw.p.longest-1, len(buf)); n > 0; n-- {
		tail := buf[len(buf)-n:]
		for _, l := range pw.p.labels {
			if len(l) > n && bytes.HasPrefix(l, tail) {
				return n
			}
		}
	}
	return 0
}

// Flush writes what is kept back.
func (pw *placeholderWriter) Flush() error {
	if len(pw.pending) == 0 {
		return nil
	}
	b := pw.pending
	pw.pending = nil
	_, err := pw.w.Write(b)
	return err
}
