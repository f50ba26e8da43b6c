package golden

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// uncodedFinding matches a finding line printed without a code: the
// severity followed directly by its colon (`file:line: error: ...`).
var uncodedFinding = regexp.MustCompile(`(^|: )(error|warning|info): `)

// TestEveryFindingHasACode reads every case's check outputs and fails on a
// finding printed without a code. diag's TestEveryReasonHasACode
// covers the Reasons it can see in the source; this covers any reason a
// case shows, however it was made (a message from a library, a string).
func TestEveryFindingHasACode(t *testing.T) {
	for _, c := range loadCases(t) {
		files, err := filepath.Glob(filepath.Join(c.Dir, "check*.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(string(b), "\n") {
				if uncodedFinding.MatchString(line) && !strings.HasPrefix(line, "gwsim: error: ") {
					t.Errorf("%s/%s: finding without a code (add its Reason to diag/codes.go): %s", c.Name, filepath.Base(f), line)
				}
			}
		}
	}
}
