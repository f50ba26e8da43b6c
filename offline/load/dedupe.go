package load

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gwsim/gwsim/diag"
)

// dedupe keeps one object per reference (kind, namespace, name, after
// namespace defaulting and conversion to v1) and reports each one dropped:
// an error when the definitions differ, a warning when they are identical
// after decoding.
// The kept one is the one whose JSON sorts first, then the one with the
// first source: the choice depends on what the objects say, never on which
// file or position they came from, unless they are identical.
func dedupe(all []loaded) ([]loaded, []diag.Finding) {
	all = sortByRef(all)
	kept := all[:0]
	var findings []diag.Finding
	for start := 0; start < len(all); {
		end := start + 1
		for end < len(all) && all[end].ref == all[start].ref {
			end++
		}
		if end-start == 1 {
			kept = append(kept, all[start])
		} else {
			winner, fs := chooseDuplicate(all[start].ref, all[start:end])
			kept = append(kept, winner)
			findings = append(findings, fs...)
		}
		start = end
	}
	return kept, findings
}

// sortByRef sorts by reference, each reference's objects in input order,
// which groups them without a map of groups (some 10 MB at 10k routes).
// It is the loader's serial tail, so it sorts the objects' positions by
// reference and then position (a total order) in two halves at once and
// merges them.
func sortByRef(all []loaded) []loaded {
	compare := func(a, b int32) int {
		return cmp.Or(all[a].ref.Compare(all[b].ref), cmp.Compare(a, b))
	}
	order := make([]int32, len(all))
	for i := range order {
		order[i] = int32(i)
	}
	half := len(order) / 2
	if len(order) < parallelSortMin {
		half = 0
	}
	var wg sync.WaitGroup
	wg.Go(func() { slices.SortFunc(order[:half], compare) })
	slices.SortFunc(order[half:], compare)
	wg.Wait()
	sorted := make([]loaded, 0, len(all))
	i, j := 0, half
	for i < half && j < len(order) {
		if compare(order[i], order[j]) < 0 {
			sorted = append(sorted, all[order[i]])
			i++
		} else {
			sorted = append(sorted, all[order[j]])
			j++
		}
	}
	for _, k := range order[i:half] {
		sorted = append(sorted, all[k])
	}
	for _, k := range order[j:] {
		sorted = append(sorted, all[k])
	}
	return sorted
}

// parallelSortMin is the number of objects from which sortByRef sorts on
// two goroutines.
const parallelSortMin = 4096

func chooseDuplicate(ref diag.ObjectRef, group []loaded) (loaded, []diag.Finding) {
	type candidate struct {
		loaded
		canon string
	}
	cands := make([]candidate, len(group))
	for i, l := range group {
		js, err := json.Marshal(l.obj)
		if err != nil {
			panic(fmt.Sprintf("bug: marshalling decoded %s: %v", ref, err))
		}
		cands[i] = candidate{loaded: l, canon: string(js)}
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		return cmp.Or(strings.Compare(a.canon, b.canon), cmp.Compare(a.src.File, b.src.File), cmp.Compare(a.src.Line, b.src.Line))
	})
	winner := cands[0]
	places := make([]diag.Source, len(cands))
	for i, c := range cands {
		places[i] = c.src
	}
	var findings []diag.Finding
	for i, c := range cands[1:] {
		others := otherPlaces(places, i+1)
		why := "the definitions differ; gwsim keeps the one whose JSON sorts first, so that the order of the input does not matter"
		sev := diag.Error
		if c.canon == winner.canon {
			// One file reached by two paths, or an overlay repeating its
			// base: nothing is lost by dropping it.
			why, sev = "the definitions are identical", diag.Warning
		}
		findings = append(findings, diag.Finding{
			Severity: sev, Object: ref, Source: c.src, Reason: diag.ReasonDuplicate,
			Message: fmt.Sprintf("defined %d times; also defined at %s; keeping the one at %s and dropping this one: %s",
				len(cands), others, winner.src, why),
		})
	}
	return winner.loaded, findings
}

// maxOtherPlaces is how many other places a duplicate's finding names:
// a thousand copies of one file give a thousand findings, and listing
// every other copy in each made the output grow with the square of it.
const maxOtherPlaces = 3

// otherPlaces names the places but places[skip]: the first
// maxOtherPlaces of them and a count of the rest.
func otherPlaces(places []diag.Source, skip int) string {
	var names []string
	for j, p := range places {
		if j == skip {
			continue
		}
		if len(names) == maxOtherPlaces {
			rest := len(places) - 1 - maxOtherPlaces
			return strings.Join(names, ", ") + fmt.Sprintf(" and %d more", rest)
		}
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}
