package flux

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/gwsim/gwsim/offline/load/kustomize"
)

// Group is the API group of Flux's Kustomization.
const Group = "kustomize.toolkit.fluxcd.io"

// Kustomization is what gwsim reads of a Flux Kustomization.
type Kustomization struct {
	Namespace, Name string
	// Path is spec.path, relative to the root of the source.
	Path            string
	TargetNamespace string
	// Substitute is postBuild.substitute; SubstituteFrom its
	// postBuild.substituteFrom references, in order.
	Substitute     map[string]string
	SubstituteFrom []ValuesRef
	// Append are the spec's patches, images and components, as JSON.
	Append map[string][]byte
}

// ValuesRef is one postBuild.substituteFrom entry.
type ValuesRef struct {
	Kind, Name string
	Optional   bool
}

// Parse reads a Flux Kustomization from an object's JSON; ok is false for
// any other object.
func Parse(js []byte) (Kustomization, bool) {
	var obj struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
		Spec struct {
			Path            string          `json:"path"`
			TargetNamespace string          `json:"targetNamespace"`
			Patches         json.RawMessage `json:"patches"`
			Images          json.RawMessage `json:"images"`
			Components      json.RawMessage `json:"components"`
			PostBuild       struct {
				Substitute     map[string]string `json:"substitute"`
				SubstituteFrom []ValuesRef       `json:"substituteFrom"`
			} `json:"postBuild"`
		} `json:"spec"`
	}
	if json.Unmarshal(js, &obj) != nil || obj.Kind != "Kustomization" || !strings.HasPrefix(obj.APIVersion, Group+"/") {
		return Kustomization{}, false
	}
	k := Kustomization{Namespace: obj.Metadata.Namespace, Name: obj.Metadata.Name, Path: obj.Spec.Path,
		TargetNamespace: obj.Spec.TargetNamespace, Substitute: obj.Spec.PostBuild.Substitute,
		SubstituteFrom: obj.Spec.PostBuild.SubstituteFrom, Append: map[string][]byte{}}
	if k.Namespace == "" {
		k.Namespace = "flux-system"
	}
	for field, raw := range map[string]json.RawMessage{"patches": obj.Spec.Patches, "images": obj.Spec.Images, "components": obj.Spec.Components} {
		if len(raw) > 0 && string(raw) != "null" {
			k.Append[field] = raw
		}
	}
	return k, true
}

// Values reads the data of a ConfigMap or Secret (Secret data decoded from
// base64, stringData winning as the API server merges it), keyed
// "Kind/namespace/name"; ok is false for any other object.
func Values(js []byte) (key string, data map[string]string, ok bool) {
	var obj struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
		Data       map[string]string `json:"data"`
		StringData map[string]string `json:"stringData"`
	}
	if json.Unmarshal(js, &obj) != nil || obj.APIVersion != "v1" || (obj.Kind != "ConfigMap" && obj.Kind != "Secret") {
		return "", nil, false
	}
	data = map[string]string{}
	for k, v := range obj.Data {
		if obj.Kind == "Secret" {
			b, err := base64.StdEncoding.DecodeString(v)
			if err != nil {
				continue
			}
			v = string(b)
		}
		data[k] = v
	}
	for k, v := range obj.StringData {
		data[k] = v
	}
	ns := obj.Metadata.Namespace
	if ns == "" {
		ns = "default"
	}
	return obj.Kind + "/" + ns + "/" + obj.Metadata.Name, data, true
}

// Vars are the values a Kustomization's references take: the user's
// (--var, --vars-file) first, then its substituteFrom in order, then its
// substitute, each overriding the one before, as kustomize-controller
// merges them (the user's stand for what the cluster would hold).
// missing lists the required substituteFrom objects not in values.
func (k Kustomization) Vars(user map[string]string, values map[string]map[string]string) (vars map[string]string, missing []string) {
	vars = map[string]string{}
	for n, v := range user {
		vars[n] = v
	}
	for _, ref := range k.SubstituteFrom {
		data, ok := values[ref.Kind+"/"+k.Namespace+"/"+ref.Name]
		if !ok && !ref.Optional {
			missing = append(missing, ref.Kind+" "+k.Namespace+"/"+ref.Name)
		}
		for n, v := range data {
			vars[n] = v
		}
	}
	for n, v := range k.Substitute {
		vars[n] = v
	}
	return vars, missing
}

// SourceRoot is the directory spec.path is relative to, for a Flux
// Kustomization written in file, found under the input directory given:
// the top level of the Git repository that holds file, else the nearest
// ancestor of given (given itself first) under which path exists. ok is
// false when neither has it.
func SourceRoot(file, given, path string) (string, bool) {
	dir, _ := filepath.Abs(filepath.Dir(file))
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			if isDir(filepath.Join(d, path)) {
				return d, true
			}
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	g, _ := filepath.Abs(given)
	for d := g; ; d = filepath.Dir(d) {
		if isDir(filepath.Join(d, path)) {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// Generate lists what kustomize-controller's generated kustomization
// holds for a folder without one: every subfolder that has a
// kustomization (not descended into), and every .yaml or .yml file below
// it whose documents are all Kubernetes objects, relative to dir, sorted.
// Files over fileBytes are left to the build to refuse.
func Generate(dir string, fileBytes int64) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if _, ok := kustomize.File(p); ok && p != dir {
				out = append(out, rel)
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(p)
		if (ext == ".yaml" || ext == ".yml") && d.Type().IsRegular() && manifests(p, fileBytes) {
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// manifests reports whether every document of a file is an object with
// apiVersion and kind.
func manifests(p string, fileBytes int64) bool {
	info, err := os.Stat(p)
	if err != nil || info.Size() > fileBytes {
		return true
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	n := 0
	for _, doc := range strings.Split("\n"+string(data), "\n---") {
		if strings.TrimSpace(doc) == "" {
			continue
		}
		var h struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if yaml.Unmarshal([]byte(doc), &h) != nil || h.APIVersion == "" || h.Kind == "" {
			return false
		}
		n++
	}
	return n > 0
}
