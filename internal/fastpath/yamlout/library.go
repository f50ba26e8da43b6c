package yamlout

import (
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"
)

// MarshalLibrary is the library call Marshal stands for: what gwsim prints
// when this fast path is off (GWSIM_FASTPATH, package internal/fastpath).
// It is sigs.k8s.io/yaml.Marshal with the one rewrite Marshal makes on
// purpose: characters a YAML parser refuses or folds are escaped in the
// JSON first (escapeUnprintable), where the library alone fails or
// changes the string.
func MarshalLibrary(v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("error marshaling into JSON: %w", err)
	}
	return yaml.JSONToYAML(escapeUnprintable(j))
}
