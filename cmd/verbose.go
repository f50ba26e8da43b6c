package cmd

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/offline/scheme"
)

// printVerbose writes the -v summary on stderr: the config file read, how
// many objects were read and assumed, how many of each kind the controller
// ended with, how many passes it took to reach a fixpoint, and each
// suppressed finding with what suppressed it.
func printVerbose(w io.Writer, out outcome, loaded int, config string) {
	if config != "" {
		fmt.Fprintf(w, "gwsim: config %s\n", config)
	}
	fmt.Fprintf(w, "gwsim: loaded %s, assumed %d\n", plural(loaded, "object", "objects"), out.Assumed)
	s := scheme.New()
	counts := map[string]int{}
	for _, obj := range out.Result.Objects {
		kind := fmt.Sprintf("%T", obj)
		if gvk, err := objectGVK(obj, s); err == nil {
			kind = gvk.Kind
		}
		counts[kind]++
	}
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
	}
	fmt.Fprintf(w, "gwsim: objects: %s\n", strings.Join(parts, ", "))
	fmt.Fprintf(w, "gwsim: fixpoint after %s\n", plural(out.Result.Passes, "pass", "passes"))
	for _, s := range out.Suppressed {
		fmt.Fprintf(w, "gwsim: suppressed by %s: %s\n", s.By, s.Finding)
	}
}
