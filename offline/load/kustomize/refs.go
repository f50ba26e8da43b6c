package kustomize

import "go.yaml.in/yaml/v3"

// LocalReferences lists the entries of a kustomization's resources, bases
// and components that name a path rather than something to download: the
// directories and files a build reads beyond its own directory (a base in
// ../base). It reads the YAML nodes only, which keep aliases unexpanded.
func LocalReferences(data []byte) []string {
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil || len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	var out []string
	for _, key := range []string{"resources", "bases", "components"} {
		v := mapValue(root.Content[0], key)
		if v == nil || v.Kind != yaml.SequenceNode {
			continue
		}
		for _, it := range v.Content {
			if it.Kind == yaml.ScalarNode && it.Value != "" && !remoteURL.MatchString(it.Value) {
				out = append(out, it.Value)
			}
		}
	}
	return out
}
