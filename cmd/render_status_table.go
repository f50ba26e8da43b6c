package cmd

import (
	"fmt"
	"io"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/translate"
)

// renderStatusTable prints translate.StatusSummary as a table, worst lines
// first: what `kubectl get gateway,httproute` would show, with every
// listener, route parent and policy ancestor on a line of its own.
func renderStatusTable(w io.Writer, objs []client.Object, view tableView) error {
	lines := translate.StatusSummary(objs)
	if len(lines) == 0 {
		_, err := fmt.Fprintln(w, "No status: no Gateway API object belongs to gwsim's controller.")
		return err
	}
	t := table{
		noHeaders: view.NoHeaders,
		maxWidth:  tableWidth,
		columns: []column{{header: "KIND"}, {header: "NAME", elide: cutLast}, {header: "PART", elide: cutLast},
			{header: "HEALTH"}, {header: "CONDITIONS", elide: cutEnd}},
	}
	for _, l := range lines {
		name := l.Object.Name
		if l.Object.Namespace != "" {
			name = l.Object.Namespace + "/" + name
		}
		t.rows = append(t.rows, []string{l.Object.Kind, name, partCell(l), string(l.Health), conditionsCell(l.Conditions)})
	}
	return t.write(w)
}

// partCell names what a line's conditions belong to, with a listener's
// attached routes.
func partCell(l translate.StatusLine) string {
	switch {
	case l.Part == "":
		return "-"
	case l.AttachedRoutes == nil:
		return l.Part
	case *l.AttachedRoutes == 1:
		return l.Part + " (1 route)"
	}
	return fmt.Sprintf("%s (%d routes)", l.Part, *l.AttachedRoutes)
}

// conditionsCell lists conditions as a reader scans them: a condition in
// its normal state by its type alone (`Accepted`), one that reports a
// problem with its status and reason (`ResolvedRefs=False (BackendNotFound)`),
// and the problem-when-True conditions (Conflicted...) not at all while
// they are False.
func conditionsCell(conds []translate.ConditionSummary) string {
	var out []string
	for _, c := range conds {
		switch {
		case c.Normal && c.Status == metav1.ConditionTrue:
			out = append(out, c.Type)
		case c.Normal:
		default:
			out = append(out, fmt.Sprintf("%s=%s (%s)", c.Type, c.Status, c.Reason))
		}
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ", ")
}
