package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestMergeParents(t *testing.T) {
	a, b, c := gwRef("", "a"), gwRef("", "b"), gwRef("", "c")
	aSpelled := gwv1.ParentReference{Group: ptr(gwv1.Group(gwv1.GroupName)), Kind: ptr(gwv1.Kind("Gateway")), Namespace: ptr(gwv1.Namespace("default")), Name: "a"}
	// replaceA replaces gwsim's entries for Gateway a, as a reconcile of a does.
	replaceA := func(p gwv1.RouteParentStatus) bool {
		return p.ControllerName == ours && parentKey("default", p.ParentRef) == parentKey("default", a)
	}
	for _, tc := range []struct {
		name               string
		spec               []gwv1.ParentReference
		existing, computed []gwv1.RouteParentStatus
		want               []gwv1.RouteParentStatus
	}{
		{
			name:     "adds to empty status",
			spec:     []gwv1.ParentReference{a},
			computed: []gwv1.RouteParentStatus{parentStatus(a, ours, "New", now)},
			want:     []gwv1.RouteParentStatus{parentStatus(a, ours, "New", now)},
		},
		{
			name: "replaces own entry for this parent, keeps other controllers and other parents",
			spec: []gwv1.ParentReference{b, a},
			existing: []gwv1.RouteParentStatus{
				parentStatus(a, ours, "Old", before),
				parentStatus(a, theirs, "Theirs", before),
				parentStatus(b, ours, "B", before),
			},
			computed: []gwv1.RouteParentStatus{parentStatus(a, ours, "New", now)},
			want: []gwv1.RouteParentStatus{
				parentStatus(b, ours, "B", before),
				// Status stayed True: the stored transition time is kept.
				parentStatus(a, ours, "New", before),
				parentStatus(a, theirs, "Theirs", before),
			},
		},
		{
			name:     "orders by spec.parentRefs index whatever the stored order",
			spec:     []gwv1.ParentReference{c, b, a},
			existing: []gwv1.RouteParentStatus{parentStatus(b, theirs, "B", before), parentStatus(c, theirs, "C", before)},
			computed: []gwv1.RouteParentStatus{parentStatus(a, ours, "A", now)},
			want: []gwv1.RouteParentStatus{
				parentStatus(c, theirs, "C", before),
				parentStatus(b, theirs, "B", before),
				parentStatus(a, ours, "A", now),
			},
		},
		{
			name:     "entries for parents not in spec go last, by parentRef",
			spec:     []gwv1.ParentReference{a},
			existing: []gwv1.RouteParentStatus{parentStatus(c, theirs, "C", before), parentStatus(b, theirs, "B", before)},
			computed: []gwv1.RouteParentStatus{parentStatus(a, ours, "A", now)},
			want: []gwv1.RouteParentStatus{
				parentStatus(a, ours, "A", now),
				parentStatus(b, theirs, "B", before),
				parentStatus(c, theirs, "C", before),
			},
		},
		{
			name:     "parentRefs match with defaults applied",
			spec:     []gwv1.ParentReference{b, aSpelled},
			existing: []gwv1.RouteParentStatus{parentStatus(aSpelled, ours, "Old", before), parentStatus(b, theirs, "B", before)},
			computed: []gwv1.RouteParentStatus{parentStatus(aSpelled, ours, "New", now)},
			want:     []gwv1.RouteParentStatus{parentStatus(b, theirs, "B", before), parentStatus(aSpelled, ours, "New", before)},
		},
		{
			name:     "nothing computed removes own entry",
			spec:     []gwv1.ParentReference{a},
			existing: []gwv1.RouteParentStatus{parentStatus(a, ours, "Old", before), parentStatus(a, theirs, "Theirs", before)},
			want:     []gwv1.RouteParentStatus{parentStatus(a, theirs, "Theirs", before)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			existing := append([]gwv1.RouteParentStatus(nil), tc.existing...)
			got := mergeParents("default", tc.spec, tc.existing, tc.computed, replaceA)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mergeParents (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(existing, tc.existing); diff != "" {
				t.Errorf("mergeParents modified existing (-before +after):\n%s", diff)
			}
		})
	}
}

func TestKeepTimes(t *testing.T) {
	cond := func(typ string, st metav1.ConditionStatus, reason string, at metav1.Time) metav1.Condition {
		return metav1.Condition{Type: typ, Status: st, Reason: reason, LastTransitionTime: at}
	}
	for _, tc := range []struct {
		name       string
		prev, next []metav1.Condition
		want       []metav1.Condition
	}{
		{"new condition keeps new time", nil, []metav1.Condition{cond("Accepted", "True", "A", now)}, []metav1.Condition{cond("Accepted", "True", "A", now)}},
		{"same status keeps old time", []metav1.Condition{cond("Accepted", "True", "A", before)}, []metav1.Condition{cond("Accepted", "True", "A", now)}, []metav1.Condition{cond("Accepted", "True", "A", before)}},
		{"reason change alone keeps old time", []metav1.Condition{cond("Accepted", "True", "A", before)}, []metav1.Condition{cond("Accepted", "True", "B", now)}, []metav1.Condition{cond("Accepted", "True", "B", before)}},
		{"status change takes new time", []metav1.Condition{cond("Accepted", "True", "A", before)}, []metav1.Condition{cond("Accepted", "False", "A", now)}, []metav1.Condition{cond("Accepted", "False", "A", now)}},
		{"matched by type", []metav1.Condition{cond("Programmed", "True", "P", before), cond("Accepted", "True", "A", before)}, []metav1.Condition{cond("Accepted", "True", "A", now), cond("Ready", "True", "R", now)}, []metav1.Condition{cond("Accepted", "True", "A", before), cond("Ready", "True", "R", now)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, keepTimes(tc.prev, tc.next)); diff != "" {
				t.Errorf("keepTimes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestKeepGatewayTimesMatchesListenersByName(t *testing.T) {
	listener := func(name string, at metav1.Time) gwv1.ListenerStatus {
		return gwv1.ListenerStatus{Name: gwv1.SectionName(name), Conditions: []metav1.Condition{{Type: "Programmed", Status: "True", LastTransitionTime: at}}}
	}
	prev := gwv1.GatewayStatus{Listeners: []gwv1.ListenerStatus{listener("https", before), listener("http", before)}}
	next := gwv1.GatewayStatus{Listeners: []gwv1.ListenerStatus{listener("http", now), listener("new", now)}}
	want := gwv1.GatewayStatus{Listeners: []gwv1.ListenerStatus{listener("http", before), listener("new", now)}}
	if diff := cmp.Diff(want, keepGatewayTimes(prev, next)); diff != "" {
		t.Errorf("keepGatewayTimes (-want +got):\n%s", diff)
	}
	if !next.Listeners[0].Conditions[0].LastTransitionTime.Equal(&now) {
		t.Error("keepGatewayTimes modified its input")
	}
}
