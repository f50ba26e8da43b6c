package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/bench/synth"
)

// TestRun checks what bench/run.sh reads from the binary: the object count
// of a generated set, one line.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	set := synth.Generate(synth.Standard(100))
	if err := set.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args    []string
		want    string
		wantErr string
	}{
		{args: []string{dir}, want: fmt.Sprintf("%d objects\n", set.Documents())},
		{args: []string{"-workers", "1", dir}, want: fmt.Sprintf("%d objects\n", set.Documents())},
		{args: nil, wantErr: "usage"},
		{args: []string{dir, dir}, wantErr: "usage"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out strings.Builder
			err := run(tt.args, &out)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.want {
				t.Errorf("output = %q, want %q", out.String(), tt.want)
			}
		})
	}
}
