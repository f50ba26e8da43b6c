package load

import (
	"bytes"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// originKey is the annotation kustomize writes an object's source file
// into (buildMetadata: [originAnnotations]).
const originKey = "config.kubernetes.io/origin"

// provenance gives documents that say where they were written the source
// they name, so that findings point there rather than at the stream that
// carried them (stdin, a rendered file):
//   - a `config.kubernetes.io/origin` annotation names the file, relative
//     to the directory the build ran in: taken as the working directory,
//     else as the directory of the file that holds the document;
//     the document's line there is found when that file can be read,
//     within the byte limits, and the file alone is named otherwise;
//   - a `# Source: chart/templates/x.yaml` comment of helm template names
//     the template, whose lines are not the rendered document's: the
//     template alone is named.
//
// It is used by the one reading goroutine; files are read at most once.
type provenance struct {
	r     *reader
	files map[string][]byte
	loc   *locator
	// origins learn the files read here too: findings point into them.
	origins *Origins
}

// resolve returns doc with the source it names, or doc unchanged.
func (p *provenance) resolve(doc document) document {
	if doc.json || !bytes.Contains(doc.data, []byte(originKey)) {
		if doc.helmSource != "" {
			doc.file, doc.line, doc.noLines = doc.helmSource, 0, true
		}
		return doc
	}
	var obj struct {
		identity
		Metadata struct {
			Name        string            `json:"name"`
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
	}
	if yaml.Unmarshal(doc.data, &obj) != nil {
		return doc
	}
	var origin struct {
		Path string `json:"path"`
		Repo string `json:"repo"`
	}
	if yaml.Unmarshal([]byte(obj.Metadata.Annotations[originKey]), &origin) != nil || origin.Path == "" || origin.Repo != "" {
		if doc.helmSource != "" {
			doc.file, doc.line, doc.noLines = doc.helmSource, 0, true
		}
		return doc
	}
	file := filepath.Clean(origin.Path)
	data := p.file(file)
	if beside := filepath.Join(filepath.Dir(doc.file), origin.Path); data == nil && doc.file != stdinName && !filepath.IsAbs(origin.Path) {
		if data = p.file(beside); data != nil {
			file = beside
		}
	}
	if data != nil {
		if src, found := p.loc.locate(file, data, obj.Kind, obj.Metadata.Name); found {
			doc.file, doc.line, doc.fields, doc.noLines = file, src.line, &src, false
			return doc
		}
	}
	doc.file, doc.line, doc.noLines = file, 0, true
	return doc
}

// file returns the bytes of a regular file within the byte limits, or nil.
func (p *provenance) file(name string) []byte {
	data, ok := p.files[name]
	if !ok {
		var again bool
		_, data, again, _ = p.r.read(input{path: name, listed: true})
		p.files[name] = data
		if data != nil {
			p.origins.record(name, data, again)
		}
	}
	return data
}
