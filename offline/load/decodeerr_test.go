package load

import "testing"

func TestIndexedPath(t *testing.T) {
	js := []byte(`{"spec":{"listeners":[{"port":80},{"port":"x"}],"ports":[[1],[2,"y"]]}}`)
	tests := []struct {
		field  string
		offset int64
		want   string
	}{
		{"spec.listeners.port", 45, "spec.listeners[1].port"},
		{"spec.listeners.port", 33, "spec.listeners[0].port"},
		{"spec.ports", 68, "spec.ports[1][1]"},
		{"spec.nothing", 10, "spec.nothing"},
	}
	for _, tt := range tests {
		if got := indexedPath(js, tt.field, tt.offset); got != tt.want {
			t.Errorf("indexedPath(%q, %d) = %q, want %q", tt.field, tt.offset, got, tt.want)
		}
	}
}
