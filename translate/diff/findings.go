package diff

import (
	"cmp"
	"regexp"
	"slices"

	"github.com/gwsim/gwsim/diag"
)

// FindingChanges are the findings only one side has. Findings are the same
// when their severity, object, field, reason and message are: where they
// sit in the files is left out, so that lines shifting under an edit
// introduce and fix nothing; so are the lines and directories of the
// sources a message quotes.
type FindingChanges struct {
	// Introduced are new's findings old does not have, with new's sources.
	Introduced []diag.Finding `json:"introduced"`
	// Fixed are old's findings new does not have, with old's sources.
	Fixed []diag.Finding `json:"fixed"`
}

// sourceInMessage matches a file:line that a message quotes (a duplicate
// names where the other definition is): a path ending in .yaml, .yml or
// .json, or <stdin>, and an optional line.
var sourceInMessage = regexp.MustCompile(`(\S*?([^\s/:]+\.(?:ya?ml|json))|<stdin>)(?::\d+)?`)

// lineInMessage matches a line number a message quotes on its own, as the
// YAML decoder's messages do ("line 7: key "name" already set in map").
var lineInMessage = regexp.MustCompile(`\bline \d+\b`)

// messageKey is a message with the sources it quotes reduced to their
// file's base name, and the line numbers it quotes left out, so that line
// shifts, and the two versions living in different directories, do not
// make the same finding two: a finding is its object, field, reason and
// what it says, not where it sits.
func messageKey(m string) string {
	m = lineInMessage.ReplaceAllString(m, "line")
	return sourceInMessage.ReplaceAllStringFunc(m, func(s string) string {
		sub := sourceInMessage.FindStringSubmatch(s)
		if sub[2] == "" {
			return sub[1]
		}
		return sub[2]
	})
}

// findingKey is a finding without its source.
type findingKey struct {
	severity               diag.Severity
	object                 diag.ObjectRef
	field, reason, message string
}

func keyOfFinding(f diag.Finding) findingKey {
	return findingKey{f.Severity, f.Object, f.Field, f.Reason, messageKey(f.Message)}
}

// compareFindings matches findings as multisets: a finding that appears
// twice in new and once in old is introduced once.
func compareFindings(old, new []diag.Finding) FindingChanges {
	return FindingChanges{Introduced: missingFrom(new, old), Fixed: missingFrom(old, new)}
}

// missingFrom returns the findings of a that b does not have, sorted.
func missingFrom(a, b []diag.Finding) []diag.Finding {
	left := map[findingKey]int{}
	for _, f := range b {
		left[keyOfFinding(f)]++
	}
	var out []diag.Finding
	for _, f := range a {
		k := keyOfFinding(f)
		if left[k] > 0 {
			left[k]--
			continue
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(x, y diag.Finding) int {
		return cmp.Or(cmp.Compare(y.Severity, x.Severity), x.Compare(y))
	})
	return out
}
