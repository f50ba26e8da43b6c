package cmd

import (
	"bytes"
	"testing"

	"github.com/gwsim/gwsim/offline/load/flux"
)

// TestPlaceholderWriter checks that a placeholder label is written back as
// its ${NAME} reference however the output is cut into writes.
func TestPlaceholderWriter(t *testing.T) {
	p := &placeholders{}
	p.set([]string{"DOMAIN", "A"})
	text := "store." + flux.Placeholder("DOMAIN") + " " + flux.Placeholder("A") + "." + flux.Placeholder("DOMAIN")
	want := "store.${DOMAIN} ${A}.${DOMAIN}"
	for cut := 0; cut <= len(text); cut++ {
		var out bytes.Buffer
		w := &placeholderWriter{w: &out, p: p}
		w.Write([]byte(text[:cut]))
		w.Write([]byte(text[cut:]))
		w.Flush()
		if out.String() != want {
			t.Errorf("cut at %d: %q, want %q", cut, out.String(), want)
		}
	}
	var out bytes.Buffer
	w := &placeholderWriter{w: &out, p: &placeholders{}}
	w.Write([]byte("no placeholders"))
	if out.String() != "no placeholders" {
		t.Errorf("without placeholders: %q", out.String())
	}
}
