package load

import (
	"encoding/json"
	"strings"

	"github.com/gwsim/gwsim/diag"
)

// A repository that keeps its Secrets encrypted with SOPS (as Flux and
// Argo CD with its SOPS plugins read them) has them in clear text but for
// the values: with the `encrypted_regex: ^(data|stringData)$` that Flux's
// guide sets, apiVersion, kind, metadata and the data keys stay readable.
// Such a Secret or ConfigMap is in the cluster once the controller has
// decrypted it, so gwsim reads it as an object whose values it does not
// know: its references resolve, its keys are there, and what its values
// hold (a certificate, a CA bundle) is taken as valid, with one info
// finding saying so. A document whose identity SOPS encrypted, or of
// another kind (whose encrypted fields gwsim would route on), stays
// skipped as before.

// openedKinds are the kinds whose encrypted values gwsim reads as unknown:
// only their data maps are encrypted, and the translation reads those as
// blobs.
var openedKinds = map[string]bool{"Secret": true, "ConfigMap": true}

// openedDataFields are the fields whose encrypted values are emptied.
var openedDataFields = []string{"data", "stringData", "binaryData"}

// sopsValue reports whether a JSON value is a SOPS ciphertext.
func sopsValue(v any) bool {
	s, ok := v.(string)
	return ok && strings.HasPrefix(s, "ENC[") && strings.HasSuffix(s, "]")
}

// holdsCiphertext reports whether any string in v is a SOPS ciphertext.
func holdsCiphertext(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			if holdsCiphertext(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if holdsCiphertext(x) {
				return true
			}
		}
	default:
		return sopsValue(v)
	}
	return false
}

// openSOPS returns a SOPS-encrypted core Secret or ConfigMap as the object
// it stands for: SOPS's record removed, each encrypted value of its data
// maps empty, and the annotation diag.EncryptedAnnotation set, so that
// the translation knows the values are unknown rather than empty. It
// reports false for a document it cannot open that way: another kind, or
// one where SOPS encrypted anything outside the data maps.
func openSOPS(js []byte) ([]byte, bool) {
	var top map[string]any
	if json.Unmarshal(js, &top) != nil {
		return nil, false
	}
	kind, _ := top["kind"].(string)
	if top["apiVersion"] != "v1" || !openedKinds[kind] {
		return nil, false
	}
	delete(top, "sops")
	data := make(map[string]any, len(openedDataFields))
	for _, f := range openedDataFields {
		if v, ok := top[f]; ok {
			data[f] = v
			delete(top, f)
		}
	}
	if holdsCiphertext(top) {
		return nil, false
	}
	for f, v := range data {
		if m, ok := v.(map[string]any); ok {
			for k, x := range m {
				if sopsValue(x) {
					m[k] = ""
				}
			}
		}
		if holdsCiphertext(v) {
			return nil, false
		}
		top[f] = v
	}
	meta, ok := top["metadata"].(map[string]any)
	if !ok {
		return nil, false
	}
	annotations, _ := meta["annotations"].(map[string]any)
	if annotations == nil {
		annotations = map[string]any{}
	}
	annotations[diag.EncryptedAnnotation] = diag.EncryptedBySOPS
	meta["annotations"] = annotations
	out, err := json.Marshal(top)
	if err != nil {
		return nil, false
	}
	return out, true
}

// encryptedFinding says that an object was read from a SOPS-encrypted
// document with its values unknown.
func encryptedFinding(ref diag.ObjectRef, src diag.Source) diag.Finding {
	return diag.Finding{
		Severity: diag.Info, Object: ref, Source: src, Reason: diag.ReasonEncrypted,
		Message: "encrypted with SOPS: gwsim reads its keys, not their values (the cluster's controller decrypts them), so a certificate or CA bundle in it is taken as valid",
	}
}
