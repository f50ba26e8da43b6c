package controller

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// A condition's lastTransitionTime is the last time its status changed
// (meta.SetStatusCondition semantics). Translate stamps every condition with
// Options.Now; the functions here put back the stored time of every
// condition whose status did not change, so that a status that did not
// change compares equal and is not written again.

// keepTimes returns next with the lastTransitionTime of every condition
// whose type is in prev with the same status taken from prev. next is not
// modified.
func keepTimes(prev, next []metav1.Condition) []metav1.Condition {
	if next == nil {
		return nil
	}
	out := make([]metav1.Condition, len(next))
	for i, c := range next {
		for _, p := range prev {
			if p.Type == c.Type && p.Status == c.Status {
				c.LastTransitionTime = p.LastTransitionTime
				break
			}
		}
		out[i] = c
	}
	return out
}

func keepClassTimes(prev, next gwv1.GatewayClassStatus) gwv1.GatewayClassStatus {
	out := *next.DeepCopy()
	out.Conditions = keepTimes(prev.Conditions, next.Conditions)
	return out
}

// keepGatewayTimes matches listener statuses by listener name.
func keepGatewayTimes(prev, next gwv1.GatewayStatus) gwv1.GatewayStatus {
	out := *next.DeepCopy()
	out.Conditions = keepTimes(prev.Conditions, next.Conditions)
	keepListenerTimes(prev.Listeners, out.Listeners, func(l *gwv1.ListenerStatus) (gwv1.SectionName, *[]metav1.Condition) {
		return l.Name, &l.Conditions
	})
	return out
}

// keepListenerTimes applies keepTimes to the conditions of every listener
// in out that prev has a listener of the same name for. A Gateway and a
// ListenerSet list their listeners' status in different types; fields
// gives a listener's name and conditions. out is updated in place, prev is
// only read.
func keepListenerTimes[L any](prev, out []L, fields func(*L) (gwv1.SectionName, *[]metav1.Condition)) {
	for i := range out {
		name, conds := fields(&out[i])
		for j := range prev {
			if prevName, prevConds := fields(&prev[j]); prevName == name {
				*conds = keepTimes(*prevConds, *conds)
				break
			}
		}
	}
}

// keepParentTimes matches route parent statuses by parentRef (defaults
// applied) and controllerName.
func keepParentTimes(routeNS string, prev []gwv1.RouteParentStatus, next gwv1.RouteParentStatus) gwv1.RouteParentStatus {
	out := *next.DeepCopy()
	for _, p := range prev {
		if p.ControllerName == next.ControllerName && sameParent(routeNS, p.ParentRef, next.ParentRef) {
			out.Conditions = keepTimes(p.Conditions, next.Conditions)
			break
		}
	}
	return out
}

// keepListenerSetTimes matches listener entry statuses by listener name.
func keepListenerSetTimes(prev, next gwv1.ListenerSetStatus) gwv1.ListenerSetStatus {
	out := *next.DeepCopy()
	out.Conditions = keepTimes(prev.Conditions, next.Conditions)
	keepListenerTimes(prev.Listeners, out.Listeners, func(l *gwv1.ListenerEntryStatus) (gwv1.SectionName, *[]metav1.Condition) {
		return l.Name, &l.Conditions
	})
	return out
}
