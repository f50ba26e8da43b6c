package egmeasure

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// Case is one golden case of EG's translator test.
type Case struct {
	Name    string
	In, Out string
}

// Cases lists the cases of dir (EG's internal/gatewayapi/testdata): every
// NAME.in.yaml with its NAME.out.yaml, sorted by name.
func Cases(dir string) ([]Case, error) {
	ins, err := filepath.Glob(filepath.Join(dir, "*.in.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(ins)
	out := make([]Case, 0, len(ins))
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in.yaml")
		o := filepath.Join(dir, name+".out.yaml")
		if _, err := os.Stat(o); err != nil {
			return nil, fmt.Errorf("case %s: %w", name, err)
		}
		out = append(out, Case{Name: name, In: in, Out: o})
	}
	return out, nil
}

// ReadExpected reads the status of every compared object of an
// *.out.yaml file (EG's TranslateResult: the Resources, with status, next
// to the IRs, which the measure does not read).
func ReadExpected(data []byte) (map[Key]Status, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	out := map[Key]Status{}
	for k, v := range doc {
		f, ok := fieldOf(k)
		if !ok || f.kind == "" || !compared(f.kind) {
			continue
		}
		objs, err := objectsOf(nil, f, v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		for _, o := range objs {
			out[KeyOf(o)] = StatusOf(o)
		}
	}
	return out, nil
}

// ReadGot reads gwsim's `status -o json` output: a v1 List of the objects
// gwsim writes status on.
func ReadGot(data []byte) (map[Key]Status, error) {
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	out := map[Key]Status{}
	for _, o := range list.Items {
		out[KeyOf(o)] = StatusOf(o)
	}
	return out, nil
}
