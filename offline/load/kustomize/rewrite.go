package kustomize

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gwsim/gwsim/diag"
)

// originAnnotations is the buildMetadata option that makes kustomize record
// each object's source file in config.kubernetes.io/origin.
const originAnnotations = "originAnnotations"

// rewritten is a kustomization file as gwsim hands it to kustomize.
type rewritten struct {
	data []byte
	// findings are the warnings for the entries taken out.
	findings []diag.Finding
	// addedOrigin says gwsim turned origin annotations on, so that it also
	// takes them off the built objects again.
	addedOrigin bool
}

// rewrite takes out of a kustomization what gwsim cannot build without
// the network or an external program (remote bases, Helm charts) and, for
// the kustomization a build starts at, turns on origin annotations. file
// is the kustomization's name as the user gave it, for the findings; dir
// is where its relative paths start. A file that does not parse as a
// mapping is returned as it is, so that kustomize reports it in its terms.
func rewrite(data []byte, file, dir string, root *Options) rewritten {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return rewritten{data: data}
	}
	m := doc.Content[0]
	var out rewritten
	changed := false
	for _, field := range []string{"resources", "bases", "components"} {
		seq := mapValue(m, field)
		if seq == nil || seq.Kind != yaml.SequenceNode {
			continue
		}
		kept := seq.Content[:0:0]
		for _, item := range seq.Content {
			if item.Kind == yaml.ScalarNode && remote(item.Value, dir) {
				out.findings = append(out.findings, notBuilt(file, item.Line,
					fmt.Sprintf("%s entry %q is remote; gwsim reads no network, so it is not built and the objects it would add are missing (the rest of the kustomization is built)", field, item.Value)))
				changed = true
				continue
			}
			kept = append(kept, item)
		}
		seq.Content = kept
	}
	for _, field := range []string{"helmCharts", "helmChartInflationGenerator"} {
		key, val := mapEntry(m, field)
		if val == nil {
			continue
		}
		for _, name := range chartNames(val) {
			out.findings = append(out.findings, notBuilt(file, key.Line,
				fmt.Sprintf("%s entry %s is not rendered: gwsim runs no helm, so the objects of the chart are missing (the rest of the kustomization is built); render it with helm template and give gwsim the output", field, name)))
		}
		removeKey(m, field)
		changed = true
	}
	if root != nil {
		changed = edit(m, *root) || changed
		bm := mapValue(m, "buildMetadata")
		if bm == nil || bm.Kind != yaml.SequenceNode {
			removeKey(m, "buildMetadata")
			bm = &yaml.Node{Kind: yaml.SequenceNode}
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "buildMetadata"}, bm)
		}
		if !hasScalar(bm, originAnnotations) {
			bm.Content = append(bm.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: originAnnotations})
			out.addedOrigin = true
			changed = true
		}
	}
	out.data = data
	if changed {
		if b, err := yaml.Marshal(&doc); err == nil {
			out.data = b
		}
	}
	return out
}

// edit makes the changes of opts to the build's own kustomization m.
func edit(m *yaml.Node, opts Options) bool {
	changed := false
	if opts.Namespace != "" {
		removeKey(m, "namespace")
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "namespace"}, &yaml.Node{Kind: yaml.ScalarNode, Value: opts.Namespace})
		changed = true
	}
	for _, field := range []string{"components", "patches", "images"} {
		js, ok := opts.Append[field]
		if !ok {
			continue
		}
		var add yaml.Node
		if yaml.Unmarshal(js, &add) != nil || len(add.Content) != 1 || add.Content[0].Kind != yaml.SequenceNode {
			continue
		}
		seq := mapValue(m, field)
		if seq == nil || seq.Kind != yaml.SequenceNode {
			removeKey(m, field)
			seq = &yaml.Node{Kind: yaml.SequenceNode}
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: field}, seq)
		}
		seq.Content = append(seq.Content, add.Content[0].Content...)
		changed = true
	}
	return changed
}

// remoteURL matches what kustomize would fetch rather than read: a URL with
// a scheme, an scp-style git address, a known forge's host, a git query or
// the `//` that separates a repository from a path within it.
var remoteURL = regexp.MustCompile(`(?i)^([a-z][a-z0-9+.-]*://|[a-z][a-z0-9-]*@[^/]+:|(github\.com|gitlab\.com|bitbucket\.org)[/:])|[?&](ref|version|submodules|timeout)=|\.git(/|$)|_git/|[^:]//`)

// remote reports whether a resources entry is something kustomize would
// clone or download. An entry that exists on disk is local whatever it
// looks like.
func remote(entry, dir string) bool {
	if !filepath.IsAbs(entry) {
		if _, err := os.Lstat(filepath.Join(dir, entry)); err == nil {
			return false
		}
	}
	return remoteURL.MatchString(entry)
}

// chartNames lists the charts of a helmCharts value (name and repo), or
// the one inflation generator.
func chartNames(v *yaml.Node) []string {
	var items []*yaml.Node
	switch v.Kind {
	case yaml.SequenceNode:
		items = v.Content
	case yaml.MappingNode:
		items = []*yaml.Node{v}
	}
	var names []string
	for _, it := range items {
		name := "(unnamed)"
		if n := mapValue(it, "name"); n != nil && n.Kind == yaml.ScalarNode {
			name = n.Value
		}
		if n := mapValue(it, "chartName"); n != nil && n.Kind == yaml.ScalarNode {
			name = n.Value
		}
		if r := mapValue(it, "repo"); r != nil && r.Kind == yaml.ScalarNode && r.Value != "" {
			name += " (" + r.Value + ")"
		}
		names = append(names, fmt.Sprintf("%q", name))
	}
	if len(names) == 0 {
		names = []string{`"(unnamed)"`}
	}
	return names
}

func notBuilt(file string, line int, msg string) diag.Finding {
	return diag.Finding{Severity: diag.Warning, Source: diag.Source{File: file, Line: line}, Reason: diag.ReasonNotBuilt, Message: msg}
}

func mapEntry(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	_, v := mapEntry(m, key)
	return v
}

func removeKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func hasScalar(seq *yaml.Node, v string) bool {
	for _, it := range seq.Content {
		if it.Kind == yaml.ScalarNode && strings.TrimSpace(it.Value) == v {
			return true
		}
	}
	return false
}
