package cmd

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/gwsim/gwsim/offline/load"
)

// validateValues are what --validate takes, as kubectl apply's flag of the
// same name: strict (the default, also true and the bare flag) refuses an
// object with an unknown or duplicate field; warn drops the field with a
// warning; ignore and false turn admission off (gwsim's --validate=false:
// nothing pruned or rejected, the CRD defaults still applied).
const validateValues = "strict|warn|ignore|true|false"

// validation is --validate parsed.
type validation struct {
	// off turns admission off (load.Options.NoValidation).
	off    bool
	fields load.FieldValidation
}

func parseValidate(s string) (validation, error) {
	switch s {
	case "strict", "true":
		return validation{fields: load.FieldsStrict}, nil
	case "warn":
		return validation{fields: load.FieldsWarn}, nil
	case "ignore", "false":
		return validation{off: true}, nil
	}
	return validation{}, fmt.Errorf("%q is not one of %s", s, validateValues)
}

// validateSetting is the config file's validate, which YAML lets a user
// write as a boolean (validate: false) or a string (validate: warn).
type validateSetting string

func (v *validateSetting) UnmarshalJSON(b []byte) error {
	var on bool
	if err := json.Unmarshal(b, &on); err == nil {
		*v = validateSetting(strconv.FormatBool(on))
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("validate: want one of %s", validateValues)
	}
	*v = validateSetting(s)
	return nil
}
