package explain

import (
	"fmt"
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

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
