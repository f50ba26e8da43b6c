package translate

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// condition is a condition before it is stamped with the object's
// generation and the translation time: the rules below produce these as data,
// and status builders stamp them once.
type condition struct {
	Type    string
	Status  bool
	Reason  string
	Message string
}

func trueCond(typ, reason, msg string) condition {
	return condition{Type: typ, Status: true, Reason: reason, Message: msg}
}

func falseCond(typ, reason, msg string) condition {
	return condition{Type: typ, Status: false, Reason: reason, Message: msg}
}

// stamp turns conditions into metav1.Conditions for an object of the given
// generation, in the order given (each status builder declares its order).
func stamp(conds []condition, generation int64, now metav1.Time) []metav1.Condition {
	out := make([]metav1.Condition, 0, len(conds))
	for _, c := range conds {
		status := metav1.ConditionFalse
		if c.Status {
			status = metav1.ConditionTrue
		}
		out = append(out, metav1.Condition{
			Type:               c.Type,
			Status:             status,
			Reason:             c.Reason,
			Message:            c.Message,
			ObservedGeneration: generation,
			LastTransitionTime: now,
		})
	}
	return out
}
