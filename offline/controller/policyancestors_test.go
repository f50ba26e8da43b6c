package controller

import (
	"fmt"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwsim/gwsim/translate"
)

// TestMergeAncestorsCap: PolicyStatus.Ancestors holds at most 16 entries;
// the merge sorts first and keeps the first 16, whatever order the
// entries come in, and a merge adding an entry past the cap writes nothing
// new.
func TestMergeAncestorsCap(t *testing.T) {
	entry := func(i int) gwv1.PolicyAncestorStatus {
		ns := gwv1.Namespace("infra")
		return gwv1.PolicyAncestorStatus{AncestorRef: gwv1.ParentReference{Namespace: &ns, Name: gwv1.ObjectName(fmt.Sprintf("gw-%02d", i))},
			ControllerName: "gwsim.dev/gateway-controller"}
	}
	none := func(gwv1.PolicyAncestorStatus) bool { return false }
	var forward, backward []gwv1.PolicyAncestorStatus
	for i := range 20 {
		forward = append(forward, entry(i))
		backward = append(backward, entry(19-i))
	}
	for name, computed := range map[string][]gwv1.PolicyAncestorStatus{"in order": forward, "reversed": backward} {
		got := mergeAncestors("app", nil, computed, none)
		if len(got) != translate.MaxPolicyAncestors {
			t.Fatalf("%s: %d entries, want %d", name, len(got), translate.MaxPolicyAncestors)
		}
		if first, last := got[0].AncestorRef.Name, got[15].AncestorRef.Name; first != "gw-00" || last != "gw-15" {
			t.Errorf("%s: entries %s..%s, want gw-00..gw-15", name, first, last)
		}
	}
	full := mergeAncestors("app", nil, forward[:16], none)
	again := mergeAncestors("app", full, []gwv1.PolicyAncestorStatus{entry(17)}, none)
	if len(again) != 16 || again[15].AncestorRef.Name != "gw-15" {
		t.Errorf("adding past the cap: %d entries, last %s; want the 16 that were there", len(again), again[len(again)-1].AncestorRef.Name)
	}
}
