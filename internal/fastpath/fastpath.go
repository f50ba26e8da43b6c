package fastpath

import (
	"fmt"
	"slices"
	"strings"
)

// Component names one fast path; its package (or, for admission and the
// store, its files) is listed in the package documentation.
type Component string

// The fast paths, each replaceable by its library.
const (
	YAMLOut   Component = "yamlout"   // YAML output; library: sigs.k8s.io/yaml.Marshal
	JSONOut   Component = "jsonout"   // JSON output; library: encoding/json.MarshalIndent
	YAMLIn    Component = "yamlin"    // YAML to JSON; library: sigs.k8s.io/yaml.YAMLToJSONStrict
	JSONIn    Component = "jsonin"    // header scan and typed decode; library: encoding/json
	Admission Component = "admission" // schema walk, CEL and metadata fast checks; library: apiextensions-apiserver
	Store     Component = "store"     // the indexed store; library: controller-runtime's fake client
)

// Components lists every fast path, in the order of a run.
func Components() []Component {
	return []Component{YAMLIn, JSONIn, Admission, Store, YAMLOut, JSONOut}
}

// EnvVar is the environment variable that chooses the mode (Parse).
const EnvVar = "GWSIM_FASTPATH"

// Mode says which fast paths run. The zero value runs them all; a
// component the mode turns off sends every call to its library.
type Mode struct {
	off []Component
}

// Off is the mode that sends every call to the library.
func Off() Mode { return Mode{off: Components()} }

// Fast reports whether c's fast path runs.
func (m Mode) Fast(c Component) bool { return !slices.Contains(m.off, c) }

// String is the mode as Parse reads it.
func (m Mode) String() string {
	switch len(m.off) {
	case 0:
		return "on"
	case len(Components()):
		return "off"
	}
	names := make([]string, len(m.off))
	for i, c := range m.off {
		names[i] = string(c)
	}
	return strings.Join(names, ",")
}

// Parse reads a mode: "" or "on" runs every fast path, "off" none, and a
// comma-separated list of components (yamlin,admission) turns off those.
func Parse(s string) (Mode, error) {
	switch strings.TrimSpace(s) {
	case "", "on":
		return Mode{}, nil
	case "off":
		return Off(), nil
	}
	var m Mode
	for name := range strings.SplitSeq(s, ",") {
		c := Component(strings.TrimSpace(name))
		if !slices.Contains(Components(), c) {
			return Mode{}, fmt.Errorf("unknown fast path %q (valid: on, off, or a list of %s)", name, componentNames())
		}
		if !slices.Contains(m.off, c) {
			m.off = append(m.off, c)
		}
	}
	slices.SortFunc(m.off, func(a, b Component) int { return slices.Index(Components(), a) - slices.Index(Components(), b) })
	return m, nil
}

func componentNames() string {
	all := Components()
	names := make([]string, len(all))
	for i, c := range all {
		names[i] = string(c)
	}
	return strings.Join(names, ", ")
}
