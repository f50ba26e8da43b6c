package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/profile"
)

// configFileName is the config file gwsim looks for upward from the first
// -f; the loader skips it when it reads a directory.
const configFileName = load.ConfigFileName

// configFile is the content of .gwsim.yaml: settings a repository keeps
// next to its manifests so that every run, local or in CI, agrees. Flags
// given on the command line win over it; ignores add up.
type configFile struct {
	// Ignore holds suppression rules, as --ignore takes them.
	Ignore []string `json:"ignore,omitempty"`
	// Severity overrides the severity of findings by code.
	Severity map[string]string `json:"severity,omitempty"`
	// FailureThreshold is --failure-threshold.
	FailureThreshold string `json:"failureThreshold,omitempty"`
	// ControllerNames are the controllers whose GatewayClasses are gwsim's
	// (--controller-name gives one); the first also names the controller
	// of assumed GatewayClasses.
	ControllerNames []string `json:"controllerNames,omitempty"`
	// Channel is --channel: the CRD channel assumed installed (auto,
	// standard or experimental).
	Channel string `json:"channel,omitempty"`
	// Assume is --assume: all, none, or a comma-separated list of kinds.
	Assume string `json:"assume,omitempty"`
	// Validate is --validate: strict, warn, ignore, true or false.
	Validate validateSetting `json:"validate,omitempty"`
	// Implementation is --implementation: auto, generic or envoy-gateway.
	Implementation string `json:"implementation,omitempty"`
	// Admission is --admission: apiserver, or none (a standalone file
	// provider reads the files).
	Admission string `json:"admission,omitempty"`
}

// findConfig looks for the config file in the directory of start (a file or
// directory given with -f; "-" or "" means the working directory) and its
// parents, up to the repository root (the first directory holding .git)
// or the file system root. It returns "" when there is none.
func findConfig(start string) (string, error) {
	if start == "" || start == "-" {
		start = "."
	}
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	for {
		p := filepath.Join(dir, configFileName)
		if _, err := os.Stat(p); err == nil {
			return relToWorkingDir(p), nil
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// relToWorkingDir shortens an absolute path for messages, when it is
// under the working directory or close to it.
func relToWorkingDir(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "../../") {
		return rel
	}
	return p
}

// assumeValue is what --assume takes: all, none, or kinds.
var assumeValue = regexp.MustCompile(`^(all|none|[A-Z][A-Za-z0-9]*(,[A-Z][A-Za-z0-9]*)*)$`)

// validate checks the values the YAML decoder cannot.
func (c configFile) validate() error {
	var errs []error
	for i, s := range c.Ignore {
		if _, err := diag.ParseIgnore(s, configFileName); err != nil {
			errs = append(errs, fmt.Errorf("ignore[%d]: %w", i, err))
		}
	}
	for code, sev := range c.Severity {
		if _, ok := diag.LookupCode(code); !ok {
			errs = append(errs, fmt.Errorf("severity: unknown finding code %q", code))
		}
		if _, err := diag.ParseSeverity(sev); err != nil {
			errs = append(errs, fmt.Errorf("severity: %s: %w", code, err))
		}
	}
	if c.FailureThreshold != "" {
		if _, err := diag.ParseSeverity(c.FailureThreshold); err != nil {
			errs = append(errs, fmt.Errorf("failureThreshold: %w", err))
		}
	}
	for i, n := range c.ControllerNames {
		if n == "" {
			errs = append(errs, fmt.Errorf("controllerNames[%d]: must not be empty", i))
		}
	}
	if c.Channel != "" && c.Channel != "standard" && c.Channel != "experimental" && c.Channel != "auto" {
		errs = append(errs, fmt.Errorf("channel: %q is not auto, standard or experimental", c.Channel))
	}
	if c.Validate != "" {
		if _, err := parseValidate(string(c.Validate)); err != nil {
			errs = append(errs, fmt.Errorf("validate: %w", err))
		}
	}
	if c.Assume != "" && !assumeValue.MatchString(c.Assume) {
		errs = append(errs, fmt.Errorf("assume: %q is not all, none or a comma-separated list of kinds", c.Assume))
	}
	if c.Implementation != "" {
		if _, err := profile.Parse(c.Implementation); err != nil {
			errs = append(errs, fmt.Errorf("implementation: %w", err))
		}
	}
	if c.Admission != "" {
		if _, err := load.ParseAdmission(c.Admission); err != nil {
			errs = append(errs, fmt.Errorf("admission: %w", err))
		}
	}
	return errors.Join(errs...)
}
