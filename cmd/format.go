package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gwsim/gwsim/cmd/yamlenc"
)

// format is an -o/--output value.
type format string

const (
	formatText   format = "text"
	formatYAML   format = "yaml"
	formatJSON   format = "json"
	formatGitHub format = "github"
	formatSARIF  format = "sarif"
	formatJUnit  format = "junit"
	formatGitLab format = "gitlab"
)

// parseFormat accepts one of valid; the error lists them all, so a typo is
// one retry away from the right spelling.
func parseFormat(s string, valid []format) (format, error) {
	names := make([]string, 0, len(valid))
	for _, f := range valid {
		if string(f) == s {
			return f, nil
		}
		names = append(names, string(f))
	}
	return "", usageErrorf("unknown output format %q (valid: %s)", s, strings.Join(names, ", "))
}

// writeYAML writes v as one YAML document, byte for byte as
// sigs.k8s.io/yaml.Marshal would but without its generic intermediate tree
// (see yamlenc). Map keys come out sorted, which for Kubernetes objects
// happens to be kubectl's order (apiVersion, kind, metadata, spec, status).
func writeYAML(w io.Writer, v any) error {
	if err := yamlenc.Encode(w, v); err != nil {
		return fmt.Errorf("encoding yaml: %w", err)
	}
	return nil
}

// writeJSON writes v as JSON indented by two spaces, with a final newline.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding json: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// writeData writes v as YAML or JSON; text is never data.
func writeData(w io.Writer, f format, v any) error {
	if f == formatJSON {
		return writeJSON(w, v)
	}
	return writeYAML(w, v)
}
