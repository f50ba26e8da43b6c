package load

import (
	"fmt"

	"github.com/gwsim/gwsim/diag"
)

// FieldValidation is what an unknown or duplicate field does, as kubectl
// apply's --validate names it. The zero value is FieldsWarn, the loader's
// behaviour before the CLI defaulted to strict; admission off
// (Options.NoValidation) is the third setting, ignore.
type FieldValidation int

const (
	// FieldsWarn keeps the object: an unknown field is dropped, as the API
	// server prunes it, and a repeated one keeps its last value; each is
	// a warning.
	FieldsWarn FieldValidation = iota
	// FieldsStrict is kubectl's default (--validate=strict): the API server
	// refuses an object with an unknown or duplicate field, so it is an
	// error and the object is left out.
	FieldsStrict
)

// strictRefusal ends the message of every strict field-validation error.
const strictRefusal = "the API server refuses the object under kubectl's default --validate=strict; gwsim leaves it out"

// strictUnknown is the error for a field the schema does not have, worded
// as the API server's field validation words it. experimental says the
// field is in the experimental channel's schema (the standard channel's
// API server refuses it all the same).
func strictUnknown(ref diag.ObjectRef, src diag.Source, path string, experimental bool) diag.Finding {
	note := ""
	if experimental {
		note = "a field of the experimental channel's CRD only, see --channel; "
	}
	return diag.Finding{
		Severity: diag.Error, Object: ref, Source: src, Field: path, Reason: diag.ReasonFieldValidation,
		Message: fmt.Sprintf("strict decoding error: unknown field %q (%s%s)", path, note, strictRefusal),
	}
}

// strictDuplicate is the error for a field given twice; msg is the
// decoder's complaint.
func strictDuplicate(ref diag.ObjectRef, src diag.Source, path, msg string) diag.Finding {
	return diag.Finding{
		Severity: diag.Error, Object: ref, Source: src, Field: path, Reason: diag.ReasonFieldValidation,
		Message: "strict decoding error: " + msg + " (" + strictRefusal + ")",
	}
}
