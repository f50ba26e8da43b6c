package fastpath

import "testing"

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in, want   string
		fastYAMLIn bool
	}{
		{"", "on", true},
		{"on", "on", true},
		{"off", "off", false},
		{"admission, yamlin", "yamlin,admission", false},
		{"store,store", "store", true},
	} {
		m, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.in, err)
		}
		if m.String() != tt.want || m.Fast(YAMLIn) != tt.fastYAMLIn {
			t.Errorf("Parse(%q) = %s, yamlin fast %v; want %s, %v", tt.in, m, m.Fast(YAMLIn), tt.want, tt.fastYAMLIn)
		}
	}
	if _, err := Parse("yamlout,fast"); err == nil {
		t.Error("Parse accepted an unknown component")
	}
	for _, c := range Components() {
		if Off().Fast(c) {
			t.Errorf("Off runs %s's fast path", c)
		}
	}
}
