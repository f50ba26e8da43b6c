package egmeasure

import (
	"encoding/json"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// numbersAsTyped returns obj with every number that its Go type holds as
// a string turned into that string, as EG's test reads its input:
// sigs.k8s.io/yaml decodes YAML against the target type and writes a YAML
// number into a string field as its text (a query parameter `value: 1234`
// becomes "1234"), where the API server refuses the number. The test's
// translator sees the strings, so the measure hands them to gwsim too.
// An object whose type is unknown, or that does not decode, is returned
// as it is: gwsim then says what is wrong with it.
func numbersAsTyped(s *runtime.Scheme, obj map[string]any) map[string]any {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return obj
	}
	typed, err := s.New(gv.WithKind(kind))
	if err != nil {
		return obj
	}
	y, err := yaml.Marshal(obj)
	if err != nil || yaml.Unmarshal(y, typed) != nil {
		return obj
	}
	j, err := json.Marshal(typed)
	if err != nil {
		return obj
	}
	var back map[string]any
	if json.Unmarshal(j, &back) != nil {
		return obj
	}
	out, _ := stringsWhereTyped(obj, back).(map[string]any)
	return out
}

// stringsWhereTyped walks orig and typed together and returns orig with
// each number replaced by typed's string at the same place.
func stringsWhereTyped(orig, typed any) any {
	switch o := orig.(type) {
	case map[string]any:
		t, _ := typed.(map[string]any)
		for k, v := range o {
			o[k] = stringsWhereTyped(v, t[k])
		}
		return o
	case []any:
		t, _ := typed.([]any)
		for i, v := range o {
			var tv any
			if i < len(t) {
				tv = t[i]
			}
			o[i] = stringsWhereTyped(v, tv)
		}
		return o
	case int, int64, float64:
		if s, ok := typed.(string); ok {
			return s
		}
	}
	return orig
}
