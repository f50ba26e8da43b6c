package cmd

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/gwsim/gwsim/internal/fastpath/jsonout"
	"github.com/gwsim/gwsim/internal/fastpath/yamlout"
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
// (see internal/fastpath/yamlout). Map keys come out sorted, which for Kubernetes objects
// happens to be kubectl's order (apiVersion, kind, metadata, spec, status).
// Long lists are cut into pieces encoded on every core (yamlPieces).
func writeYAML(w io.Writer, v any) error {
	p, err := yamlPieces(w, v, yamlRun)
	if err != nil {
		return err
	}
	return writePieces(w, p)
}

// yamlRun is how many items of a long list make one piece of a YAML
// document: small enough that both cores stay busy to the end, large
// enough that a piece costs far more than handing it to a core.
const yamlRun = 64

// yamlPieces is v's YAML document cut into pieces (yamlout.Split): lists of
// more than run items are cut into runs of run items. The bytes are those
// of encoding v at once.
func yamlPieces(w io.Writer, v any, run int) (pieces, error) {
	if yamlLib, _ := libraryEncoders(w); yamlLib {
		b, err := yamlout.MarshalLibrary(v)
		if err != nil {
			return pieces{}, fmt.Errorf("encoding yaml: %w", err)
		}
		return textPiece(string(b)), nil
	}
	s, err := yamlout.NewEncoder(nil).Split(v, run)
	if err != nil {
		return pieces{}, fmt.Errorf("encoding yaml: %w", err)
	}
	p := partPieces(s, "yaml")
	p.write = s.WritePart
	return p, nil
}

// parts is a document cut into parts that encode independently, each
// once and in any order (yamlout.Split, jsonout.Split).
type parts interface {
	Len() int
	EncodePart(i int, out *bytes.Buffer) error
}

// partPieces are the pieces of s; format names it in an error.
func partPieces(s parts, format string) pieces {
	return pieces{
		n: s.Len(),
		render: func(i int, out *bytes.Buffer) error {
			if err := s.EncodePart(i, out); err != nil {
				return fmt.Errorf("encoding %s: %w", format, err)
			}
			return nil
		},
	}
}

// writeJSON writes v as JSON indented by two spaces, with a final newline:
// the bytes of json.MarshalIndent(v, "", "  "), but cut into pieces that
// encode on every core and stream out (internal/fastpath/jsonout), so that a long document
// is never held whole in memory.
func writeJSON(w io.Writer, v any) error {
	if _, jsonLib := libraryEncoders(w); jsonLib {
		b, err := jsonout.MarshalIndentLibrary(v)
		if err != nil {
			return fmt.Errorf("encoding json: %w", err)
		}
		_, err = w.Write(b)
		return err
	}
	s, err := jsonout.New(v, jsonRun)
	if err != nil {
		return fmt.Errorf("encoding json: %w", err)
	}
	return writePieces(w, concatPieces(partPieces(s, "json"), textPiece("\n")))
}

// jsonRun is how many items of a long list make one piece of a JSON
// document (see yamlRun).
const jsonRun = 64

// writeData writes v as YAML or JSON; text is never data.
func writeData(w io.Writer, f format, v any) error {
	if f == formatJSON {
		return writeJSON(w, v)
	}
	return writeYAML(w, v)
}
