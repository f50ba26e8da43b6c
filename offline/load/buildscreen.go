package load

import (
	"bytes"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/load/kustomize"
)

// A kustomize build parses every file it reads as a whole: one document
// that does not parse fails the build, and an alias bomb is expanded
// inside kustomize, beyond the loader's reach. So the loader screens each
// file before kustomize sees it, with the rules it applies to the files
// it reads itself: a document whose aliases expand past the limits is
// refused (an input error), a resource's document that does not parse is
// left out with an error finding at its line, and the rest of the file
// is built. What the screen keeps then goes through the decoder like any
// other document, so a built object of the wrong type loses only itself
// as well.

// spent is what the builds used of the limits that the reader applies to
// the rest of the input after them.
type spent struct {
	// bytes is what the builds read (see kustomize.Budget.TotalBytes).
	bytes int64
	// expanded is what the aliases of the documents they read expand to.
	expanded int64
}

// screener returns the kustomize.Budget.Screen of one load, charging
// aliases with what the screened documents expand to.
func screener(aliases *aliasBudget) func(string, []byte, bool) kustomize.Screened {
	return func(file string, data []byte, kustomization bool) kustomize.Screened {
		docs, errs := split(file, data)
		out := kustomize.Screened{Findings: errs}
		kept := make([][]byte, 0, len(docs))
		dropped := len(errs) > 0
		for _, doc := range docs {
			if refused := aliases.refuse(doc); refused != nil {
				out.Errors = append(out.Errors, *refused)
				dropped = true
				continue
			}
			// A kustomization that does not parse fails its build, as it
			// fails kubectl's.
			if !kustomization && !doc.json {
				if f, bad := unparsable(doc); bad {
					if f.Reason == diag.ReasonLimitExceeded {
						out.Errors = append(out.Errors, f)
					} else {
						out.Findings = append(out.Findings, f)
					}
					dropped = true
					continue
				}
			}
			kept = append(kept, doc.data)
		}
		if !dropped {
			out.Data = data
			return out
		}
		out.Data = bytes.Join(kept, []byte("\n---\n"))
		return out
	}
}

// unparsable returns the finding for a YAML document that does not
// parse, at the line the parser names: a limit error for one nested too
// deeply, an error finding otherwise.
func unparsable(doc document) (diag.Finding, bool) {
	if _, err := yaml.YAMLToJSON(doc.data); err != nil {
		line, msg := yamlMessage(err.Error(), doc.base)
		src := diag.Source{File: doc.file, Line: doc.line}
		if line != 0 {
			src.Line = line
		}
		if strings.Contains(msg, "exceeded max depth") {
			return limitError(src, diag.ObjectRef{}, "", msg), true
		}
		return parseError(src, diag.ObjectRef{}, msg+"; gwsim leaves this document out of the build and builds the rest"), true
	}
	return diag.Finding{}, false
}
