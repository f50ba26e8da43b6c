package egmeasure

import (
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/offline/validate"
)

// Refusals returns, for each object of the case that the API server would
// refuse (schema, CEL and metadata of the experimental channel's CRDs and
// Envoy Gateway's), what it says; none means the case's input is one the
// API server admits. The agreement rate that counts is over those cases:
// an object a cluster never stores is not one Envoy Gateway's controller
// sees there.
func (in Input) Refusals(v *validate.Validator) []string {
	var out []string
	for _, o := range in.Objects {
		k := KeyOf(o)
		apiVersion, _ := o["apiVersion"].(string)
		gv, err := schema.ParseGroupVersion(apiVersion)
		if err != nil {
			continue
		}
		gvk := gv.WithKind(k.Kind)
		if !validate.Handles(gvk.GroupKind()) || !v.Serves(gvk) {
			continue
		}
		obj, err := deepCopyJSON(o)
		if err != nil {
			out = append(out, fmt.Sprintf("%s: %v", k, err))
			continue
		}
		res, err := v.Admit(gvk, obj)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("%s: %v", k, err))
		case len(res.Errors) > 0:
			// The schema walk meets a map's fields in no fixed order, so
			// the first of several errors is chosen by text, not place.
			first := res.Errors[0].Error()
			for _, e := range res.Errors[1:] {
				first = min(first, e.Error())
			}
			out = append(out, fmt.Sprintf("%s: %s", k, first))
		}
	}
	sort.Strings(out)
	return out
}

// deepCopyJSON copies o as decoded JSON (numbers as int64 or float64), the
// form Admit takes.
func deepCopyJSON(o map[string]any) (map[string]any, error) {
	data, err := yaml.Marshal(o)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := yaml.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return normalizeNumbers(out).(map[string]any), nil
}

// normalizeNumbers turns the float64 of whole numbers into int64, as a
// JSON decoder with UseNumber and the API server's conversion do.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
	case float64:
		if x == float64(int64(x)) {
			return int64(x)
		}
	}
	return v
}
