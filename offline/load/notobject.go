package load

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gwsim/gwsim/diag"
)

// A repository's folders hold YAML that is not a Kubernetes object beside
// the manifests: Helm values, application config, CI workflows, files
// encrypted with SOPS. kubectl apply -R would refuse such a file; Flux,
// Argo CD and kustomize never hand it to the API server. gwsim skips such a
// document when it comes from a directory (a file named with -f is meant to
// be a manifest, so there it stays an error) and lists the files in one
// info finding, so that nothing is skipped without a word.

// skippedDoc is a directory entry's document that is not a Kubernetes
// object, and why.
type skippedDoc struct {
	src diag.Source
	why string
}

// notAnObject reports whether a directory entry's document is not a
// Kubernetes object: a list or a scalar at its top, SOPS-encrypted content
// (a top-level sops key), Envoy Gateway's own configuration (see
// envoyGatewayConfigKind), or a mapping with neither kind nor metadata (a
// values file, a workflow, a Chart.yaml). A mapping with one of them is
// taken for a manifest with a mistake, which the decoder reports.
func notAnObject(js []byte, h header, err error) bool {
	switch {
	case errors.Is(err, errNotMapping):
		return true
	case err != nil:
		return false
	case sopsEncrypted(js), isEnvoyGatewayConfig(h):
		return true
	}
	return !h.null && h.Kind == "" && !h.hasMetadata
}

// isEnvoyGatewayConfig reports whether a document's header is Envoy
// Gateway's configuration's.
func isEnvoyGatewayConfig(h header) bool {
	group, _, _ := strings.Cut(h.APIVersion, "/")
	return envoyGatewayConfig(group, h.Kind)
}

// whyNotAnObject names what notAnObject found, for the summary.
func whyNotAnObject(js []byte, h header, err error) string {
	switch {
	case errors.Is(err, errNotMapping) && bytes.HasPrefix(bytes.TrimLeft(js, " \t\r\n"), []byte("[")):
		return "a list"
	case errors.Is(err, errNotMapping):
		return "a scalar"
	case sopsEncrypted(js):
		return "encrypted with SOPS"
	case err == nil && isEnvoyGatewayConfig(h):
		return "Envoy Gateway's own configuration (kind EnvoyGateway, read from its config file, never applied)"
	}
	return "no kind or metadata"
}

// sopsEncrypted reports whether a JSON object has a top-level sops object,
// SOPS's record of how the rest of the file is encrypted. Its values are
// ciphertext (`ENC[AES256_GCM,...]`), which no decoder can read.
func sopsEncrypted(js []byte) bool {
	if !bytes.Contains(js, []byte(`"sops"`)) {
		return false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(js, &top) != nil {
		return false
	}
	v, ok := top["sops"]
	return ok && bytes.HasPrefix(bytes.TrimSpace(v), []byte("{"))
}

// templated reports whether a document that does not parse as YAML holds
// Go template actions (`{{ .Values.x }}`): a Helm chart's template, which
// only helm template turns into manifests.
func templated(data []byte) bool {
	i := bytes.Index(data, []byte("{{"))
	return i >= 0 && bytes.Contains(data[i:], []byte("}}"))
}

// maxSkippedListed bounds the documents the summary names, so that -R
// over a repository full of package.json files stays one readable line.
const maxSkippedListed = 20

// skippedSummary is the one finding that lists the directory entries'
// documents skipped for not being Kubernetes objects, grouped by reason,
// each at its file:line. It counts documents, not files, and orders them
// by reason first, so that however the input is split into files it says
// the same.
func skippedSummary(docs []skippedDoc) (diag.Finding, bool) {
	if len(docs) == 0 {
		return diag.Finding{}, false
	}
	docs = slices.Clone(docs)
	slices.SortFunc(docs, func(a, b skippedDoc) int {
		return cmp.Or(cmp.Compare(a.why, b.why), cmp.Compare(a.src.File, b.src.File), cmp.Compare(a.src.Line, b.src.Line))
	})
	listed := docs[:min(len(docs), maxSkippedListed)]
	var groups []string
	for i := 0; i < len(listed); {
		j := i
		var where []string
		for ; j < len(listed) && listed[j].why == listed[i].why; j++ {
			where = append(where, listed[j].src.String())
		}
		groups = append(groups, fmt.Sprintf("%s (%s)", listed[i].why, strings.Join(where, ", ")))
		i = j
	}
	if n := len(docs) - len(listed); n > 0 {
		groups = append(groups, fmt.Sprintf("and %d more", n))
	}
	return diag.Finding{
		Severity: diag.Info, Reason: diag.ReasonNotAnObject,
		Message: fmt.Sprintf("skipped %d YAML %s found in directories that %s not %s (Helm values, application config, CI workflows and SOPS-encrypted files are never applied as manifests): %s",
			len(docs), plural(len(docs), "document", "documents"), plural(len(docs), "is", "are"),
			plural(len(docs), "a Kubernetes object", "Kubernetes objects"), strings.Join(groups, "; ")),
	}, true
}
