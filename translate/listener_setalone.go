package translate

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/diag"
)

// listenersAlone checks the listeners of a ListenerSet whose Gateway is
// not in the input (GEP-1713: a team attaches listeners to a Gateway it
// does not own) as far as they can be checked without that Gateway: each
// entry as a listener (protocol, route kinds, certificateRefs, with the
// open world's assumptions), and the entries against each other with the
// Gateway's "distinct listeners" rule, since GEP-1713 validates the
// merged list as one Gateway's. What depends on the Gateway (its own
// listeners, which take precedence; its spec.tls) is not checked, as the
// info finding about the parentRef says. Nothing is written to status:
// the Gateway's controller is not known. Each problem is the error its
// listener's condition would report, on whatever Gateway it attaches to.
func (w *world) listenersAlone(ls *gwv1.ListenerSet, gw types.NamespacedName) []diag.Finding {
	standIn := &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: gw.Namespace, Name: gw.Name}}
	owner := listenerOwner{kind: "ListenerSet", namespace: ls.Namespace, name: ls.Name}
	entries := make([]*listenerResult, len(ls.Spec.Listeners))
	for i, e := range ls.Spec.Listeners {
		entries[i] = w.evaluateListener(standIn, owner, listenerOf(e))
	}
	markConflicts(entries)
	ref := diag.ObjectRef{Kind: "ListenerSet", Namespace: ls.Namespace, Name: ls.Name}
	var out []diag.Finding
	for _, l := range entries {
		l.settle()
		c := firstUnhealthy(stamp(l.conditions(), ls.Generation, w.opts.Now))
		if c == nil {
			continue
		}
		out = append(out, diag.Finding{
			Severity: diag.Error, Object: ref, Source: w.in.Sources.Of(ref), Field: fmt.Sprintf("spec.listeners[%s]", l.spec.Name), Reason: c.Reason,
			Message: fmt.Sprintf("%s would be %s (%s) on any Gateway: %s", c.Type, c.Status, c.Reason, c.Message),
		})
	}
	return out
}
