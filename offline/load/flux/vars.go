package flux

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
)

// ParseVars reads a vars file: a ConfigMap or Secret (its data, as
// substituteFrom would read it), or KEY=VALUE lines (blank lines and
// lines starting with # skipped). The error names the line at fault.
func ParseVars(data []byte) (map[string]string, error) {
	if js, err := yaml.YAMLToJSON(data); err == nil && bytes.HasPrefix(bytes.TrimSpace(js), []byte("{")) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(js, &obj) == nil && obj["kind"] != nil {
			_, vals, ok := Values(js)
			if !ok {
				return nil, fmt.Errorf("not a ConfigMap or Secret (kind %s)", obj["kind"])
			}
			return vals, nil
		}
	}
	vars := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), len(data)+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := setVar(vars, line); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
	}
	return vars, sc.Err()
}

// ParseVar reads one NAME=VALUE (the CLI's --var) into vars.
func ParseVar(vars map[string]string, s string) error { return setVar(vars, s) }

func setVar(vars map[string]string, s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || !varName.MatchString(name) {
		return fmt.Errorf("%q is not NAME=VALUE with a variable name Flux accepts ([_a-zA-Z][_a-zA-Z0-9]*)", s)
	}
	vars[name] = val
	return nil
}
