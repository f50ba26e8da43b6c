package explain

import (
	"fmt"
	"github.com/gwsim/gwsim/internal/editdistance"
	"strings"
)

// didYouMean suggests want when got is a likely typo of it: within a small
// edit distance (2, or 1 for names of up to 5 characters), but not equal.
// A wildcard pattern "*.example.com" is compared with got's labels after
// the first. It returns "" or " (did you mean X?)", to follow a message.
func didYouMean(got, want string) string {
	if got == "" || want == "" || got == want {
		return ""
	}
	a, b := strings.ToLower(got), strings.ToLower(want)
	if suffix, ok := strings.CutPrefix(b, "*."); ok {
		_, rest, found := strings.Cut(a, ".")
		if !found {
			return ""
		}
		a, b = rest, suffix
	}
	limit := 2
	if len(b) <= 5 {
		limit = 1
	}
	if d := editDistance(a, b); d > 0 && d <= limit {
		return fmt.Sprintf(" (did you mean %s?)", want)
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, in bytes (no
// distance exceeds the longer string's length, so that bound cuts nothing).
func editDistance(a, b string) int {
	return editdistance.Bounded(a, b, max(len(a), len(b))+1)
}
