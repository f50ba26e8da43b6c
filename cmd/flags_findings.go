package cmd

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gwsim/gwsim/diag"
)

// findingFlags are the flags that decide what happens to findings once
// they are found: which are suppressed, at what severity, and which fail
// the run. The config file's settings are merged in here too.
type findingFlags struct {
	Ignore           []string
	Config           string
	FailureThreshold string

	// policy is the result of complete: the flags and the config file merged.
	policy findingPolicy
	// configPath is the config file read, "" for none.
	configPath string
}

// findingPolicy is what the pipeline applies to the findings it collected.
type findingPolicy struct {
	Ignores []diag.Ignore
	// Severity overrides the severity of findings by code.
	Severity map[string]diag.Severity
	// Threshold is the least severity that fails the run (exit 1).
	Threshold diag.Severity
}

func (f *findingFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.Ignore, "ignore", nil,
		"suppress findings with this code, everywhere (GWS3001) or on one object (GWS3001:HTTPRoute/ns/name); repeatable, or comma-separated")
	fs.StringVar(&f.Config, "config", "",
		"config file to read (default: "+configFileName+" in the first -f's directory or a parent, up to the repository root)")
	fs.StringVar(&f.FailureThreshold, "failure-threshold", "error",
		"least severity of a finding that fails the run (exit 1): error|warning|info")
}

// complete reads the config file and merges it with the flags into p: the
// one place where config settings reach the options. A flag given on the
// command line wins over the config file; ignore rules add up.
func (f *findingFlags) complete(c *cobra.Command, p *pipelineFlags) error {
	cfg, err := f.loadConfig(p.Files)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	changed := c.Flags().Changed
	threshold := f.FailureThreshold
	if !changed("failure-threshold") && cfg.FailureThreshold != "" {
		threshold = cfg.FailureThreshold
	}
	if f.policy.Threshold, err = diag.ParseSeverity(threshold); err != nil {
		return usageErrorf("--failure-threshold: %v", err)
	}
	for _, v := range f.Ignore {
		for _, s := range strings.Split(v, ",") {
			ig, err := diag.ParseIgnore(s, "--ignore")
			if err != nil {
				return usageErrorf("--ignore: %v", err)
			}
			f.policy.Ignores = append(f.policy.Ignores, ig)
		}
	}
	for _, s := range cfg.Ignore {
		ig, _ := diag.ParseIgnore(s, f.configPath) // checked by readConfig
		f.policy.Ignores = append(f.policy.Ignores, ig)
	}
	f.policy.Severity = map[string]diag.Severity{}
	for code, s := range cfg.Severity {
		f.policy.Severity[code], _ = diag.ParseSeverity(s) // checked by readConfig
	}
	if !changed("controller-name") && len(cfg.ControllerNames) > 0 {
		p.ControllerName = cfg.ControllerNames[0]
		p.ControllerNames = cfg.ControllerNames
	}
	// A flag of the same name wins over the config file; assume is kept
	// for --assume to read once it exists.
	if fl := c.Flags().Lookup("channel"); (fl == nil || !fl.Changed) && cfg.Channel != "" {
		p.Channel = cfg.Channel
	}
	if fl := c.Flags().Lookup("validate"); (fl == nil || !fl.Changed) && cfg.Validate != "" {
		p.Validate = string(cfg.Validate)
	}
	if fl := c.Flags().Lookup("assume"); fl == nil || !fl.Changed {
		p.Assume = cfg.Assume
	}
	if fl := c.Flags().Lookup("implementation"); (fl == nil || !fl.Changed) && cfg.Implementation != "" {
		p.Implementation = cfg.Implementation
	}
	if fl := c.Flags().Lookup("admission"); (fl == nil || !fl.Changed) && cfg.Admission != "" {
		p.Admission = cfg.Admission
	}
	return nil
}

// loadConfig reads --config, or the config file found upward from the
// first -f; none is an empty config.
func (f *findingFlags) loadConfig(files []string) (configFile, error) {
	path := f.Config
	if path == "" && len(files) > 0 {
		found, err := findConfig(files[0])
		if err != nil {
			return configFile{}, err
		}
		path = found
	}
	if path == "" {
		return configFile{}, nil
	}
	f.configPath = path
	return readConfig(path)
}
