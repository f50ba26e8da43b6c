package load

import (
	"bytes"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gwsim/gwsim/offline/validate"
)

// maxPostponed bounds the documents one worker sets aside while a kind
// compiles; past it, the worker waits like any other. A postponed
// document keeps its file's bytes alive until it is decoded, so this also
// bounds what the reader's one-file-at-a-time promise gives up.
const maxPostponed = 4096

// waitsForCompile reports whether decoding doc now would wait for
// another worker compiling its kind's schema or CEL rules (HTTPRoute's take
// about 0.2 s of CPU). A worker then takes other documents first, so that
// no core sits idle while one compiles, and decodes doc afterwards: the
// kind is only guessed here (sniffKind), to order the work, and a
// document decodes the same whenever it is decoded.
func (d *decoder) waitsForCompile(doc document) bool {
	if d.admission == nil || doc.json {
		return false
	}
	v := d.admission.channel
	if !d.admission.validate {
		v = d.admission.defaults()
	}
	if !v.MayBeCompiling() {
		return false
	}
	gvk, ok := sniffKind(doc.data)
	return ok && validate.Handles(gvk.GroupKind()) && v.Compiling(gvk)
}

// sniffKind finds the apiVersion and kind of a YAML document written the
// usual way, each with a plain value on a line of its own at the top level
// (`kind: HTTPRoute`), without parsing it. It is a guess for ordering work,
// never a reading of the document: ok is false when either line is missing
// or unusual.
func sniffKind(data []byte) (gvk schema.GroupVersionKind, ok bool) {
	var apiVersion, kind []byte
	for len(data) > 0 && (apiVersion == nil || kind == nil) {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if v, found := bytes.CutPrefix(line, []byte("apiVersion:")); found {
			apiVersion = plainValue(v)
		} else if v, found := bytes.CutPrefix(line, []byte("kind:")); found {
			kind = plainValue(v)
		}
	}
	if len(apiVersion) == 0 || len(kind) == 0 {
		return schema.GroupVersionKind{}, false
	}
	group, version, found := bytes.Cut(apiVersion, []byte("/"))
	if !found {
		group, version = nil, apiVersion
	}
	return schema.GroupVersionKind{Group: string(group), Version: string(version), Kind: string(kind)}, true
}

// plainValue is the value after a key's colon when it is one plain word
// (a trailing CR or spaces aside); otherwise an empty slice.
func plainValue(v []byte) []byte {
	v = bytes.Trim(v, " \r")
	if bytes.ContainsAny(v, " #'\"&*!|>{}[],") {
		return v[:0]
	}
	return v
}
