package load

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLostPaths(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		want          []string
	}{
		{"equal", `{"a": {"b": [1, 2]}}`, `{"a": {"b": [1, 2]}}`, nil},
		{"dropped keys, sorted", `{"spec": {"z": 1, "a": 2, "k": 3}}`, `{"spec": {"k": 3}}`, []string{"spec.a", "spec.z"}},
		{"inside list items", `{"rules": [{"x": 1}, {"x": 2, "y": 3}]}`, `{"rules": [{"x": 1}, {"x": 2}]}`, []string{"rules[1].y"}},
		{"changed value", `{"a": "x"}`, `{"a": "y"}`, []string{"a"}},
		{"list of other length", `{"a": [1, 2]}`, `{"a": [1]}`, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b, a any
			if err := json.Unmarshal([]byte(tt.before), &b); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tt.after), &a); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, lostPaths("", b, a)); diff != "" {
				t.Errorf("lostPaths (-want +got):\n%s", diff)
			}
		})
	}
}
