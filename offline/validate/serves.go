package validate

import "k8s.io/apimachinery/pkg/runtime/schema"

// Serves reports whether the channel's CRDs serve gvk: whether Admit would
// admit it rather than return a *NotServedError, and Default default it.
func (v *Validator) Serves(gvk schema.GroupVersionKind) bool {
	_, err := v.compiled(gvk)
	return err == nil
}
