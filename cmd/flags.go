package cmd

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/offline/validate"
	"github.com/gwsim/gwsim/profile"
)

// defaultControllerName is the controller of the GatewayClasses gwsim
// assumes when the input names one that it does not define.
const defaultControllerName = "gwsim.dev/gateway-controller"

// pipelineFlags are the flags of every command that reads manifests.
type pipelineFlags struct {
	Files     []string
	Recursive bool
	sourceFlags
	Namespace      string
	ControllerName string
	// ControllerNameSet is true when the user passed --controller-name: the
	// name then also narrows which GatewayClasses are gwsim's.
	ControllerNameSet bool
	// ControllerNames are the controllers whose GatewayClasses are gwsim's,
	// when narrowed: --controller-name's one, or the config file's list.
	ControllerNames []string
	Strict          bool
	Output          string
	Verbose         bool
	// Findings are the flags that suppress findings and set the exit
	// threshold, merged with the config file.
	Findings findingFlags
	// Channel is the Gateway API CRD set assumed installed (--channel, or
	// the config file's channel): standard, experimental, or auto, which
	// lets the input decide (load.ChannelAuto).
	Channel string
	// Validate is --validate as given (or the config file's validate):
	// strict, warn, ignore, true or false. validation holds it parsed.
	Validate   string
	validation validation
	// Admission is --admission: apiserver, or none (standalone).
	Admission string
	// Implementation is --implementation: auto (per GatewayClass),
	// generic or envoy-gateway.
	Implementation string
	// Assume is --assume, or the config file's assume: "" (the
	// per-namespace rule), all, none, or a list of kinds (see
	// load.OpenWorld).
	Assume string
	// Gateways are the --gateways paths: the platform's Gateways, read for
	// attachment only.
	Gateways []string
	// Exclude are the --exclude globs: files skipped in directories.
	Exclude []string
	// MaxFileBytes and MaxTotalBytes are the loader's byte limits, as
	// given (a quantity: 64Mi, 1G, 1048576); Limits holds them parsed.
	MaxFileBytes  string
	MaxTotalBytes string
	// MaxTotalExpanded is the budget of alias expansion over all inputs.
	MaxTotalExpanded string
	Limits           load.Limits

	// controllerNameFlag is the repeatable --controller-name as given.
	controllerNameFlag []string
	formats            []format
}

// register binds the flags to c. Each command lists the output formats it
// supports, the first being its default.
func (p *pipelineFlags) register(c *cobra.Command, formats ...format) {
	p.formats = formats
	names := ""
	for i, f := range formats {
		if i > 0 {
			names += "|"
		}
		names += string(f)
	}
	fs := c.Flags()
	fs.StringArrayVarP(&p.Files, "filename", "f", nil, "manifest file or directory to read, or - for stdin (repeatable)")
	fs.BoolVarP(&p.Recursive, "recursive", "R", false, "read directories given with -f recursively")
	p.sourceFlags.register(fs)
	fs.StringVarP(&p.Namespace, "namespace", "n", "default", "namespace of objects that do not set one")
	fs.StringArrayVar(&p.controllerNameFlag, "controller-name", []string{defaultControllerName},
		"controller gwsim stands in for (repeatable); when set, only GatewayClasses with one of these controllerNames are gwsim's, and the first owns assumed GatewayClasses")
	fs.BoolVar(&p.Strict, "strict", false, "treat every assumption (a missing GatewayClass, Secret, Service, ConfigMap or Gateway, namespace labels, static Gateway addresses) as an error (exit 1)")
	fs.StringVar(&p.Assume, "assume", "", "which missing objects to assume: all, none, or a list of kinds (Secret,Service,...); default: a kind in a namespace where the input holds none of it")
	fs.StringArrayVar(&p.Gateways, "gateways", nil, "file or directory (read recursively) holding the platform's Gateways and ListenerSets, used for route attachment only (repeatable)")
	fs.StringArrayVar(&p.Exclude, "exclude", nil, "skip files whose path below a -f directory, or whose name, matches this glob (repeatable)")
	fs.StringVar(&p.Channel, "channel", string(load.ChannelAuto),
		"Gateway API CRD channel assumed installed: auto|standard|experimental (auto: experimental when the input holds a kind or version only it serves, else standard; under standard, experimental fields are pruned)")
	fs.StringVar(&p.Validate, "validate", "strict",
		"admit objects as the API server would ("+validateValues+"): strict refuses objects with an unknown or duplicate field, as kubectl apply does by default; warn drops such a field with a warning; ignore or false skips validation (the CRD defaults are still applied)")
	fs.Lookup("validate").NoOptDefVal = "strict"
	fs.StringVar(&p.Admission, "admission", string(load.AdmissionAPIServer),
		"what reads the objects before the controller: apiserver (kube-apiserver's checks) or none (standalone, as Envoy Gateway's file provider; metadata an API server would refuse is a warning)")
	fs.StringVar(&p.Implementation, "implementation", string(profile.Auto),
		"implementation profile: auto (per GatewayClass controllerName), generic or envoy-gateway (see docs/implementations.md)")
	fs.StringVarP(&p.Output, "output", "o", string(formats[0]), "output format: "+names)
	fs.BoolVarP(&p.Verbose, "verbose", "v", false, "print passes, object counts and info findings on stderr")
	registerFormatCompletion(c, formats)
	p.Findings.register(fs)
	fs.StringVar(&p.MaxFileBytes, "max-file-bytes", "64Mi", "largest input file (or stdin) gwsim reads, as a quantity (64Mi, 1Gi)")
	fs.StringVar(&p.MaxTotalBytes, "max-total-bytes", "256Mi", "most bytes gwsim reads from all inputs together, as a quantity")
	fs.StringVar(&p.MaxTotalExpanded, "max-total-expanded-bytes", "32Mi", "most bytes the YAML documents that use aliases may expand to together, as a quantity")
}

// byteLimit parses a byte-limit flag: a positive Kubernetes quantity.
func byteLimit(name, value string) (int64, error) {
	q, err := resource.ParseQuantity(value)
	if err != nil || q.Sign() <= 0 {
		return 0, usageErrorf("--%s: %q is not a positive number of bytes (examples: 64Mi, 1Gi, 1048576)", name, value)
	}
	n, ok := q.AsInt64()
	if !ok {
		return 0, usageErrorf("--%s: %q is not a whole number of bytes that gwsim can count", name, value)
	}
	return n, nil
}

// complete checks the flags once cobra has parsed them; every mistake here is
// a usage error (exit 2) found before any file is read.
func (p *pipelineFlags) complete(c *cobra.Command) (format, error) {
	f, err := parseFormat(p.Output, p.formats)
	if err != nil {
		return "", err
	}
	if len(p.Files) == 0 && len(p.Kustomize) == 0 {
		return "", usageErrorf("no input: pass manifests with -f FILE, -f DIR, -f - (stdin) or -k DIR")
	}
	if _, err := validate.ParseChannel(p.Channel); err != nil && p.Channel != string(load.ChannelAuto) {
		return "", usageErrorf("--channel: %v or %q", err, load.ChannelAuto)
	}
	if _, err := load.ParseAdmission(p.Admission); err != nil {
		return "", usageErrorf("--admission: %v", err)
	}
	if _, err := profile.Parse(p.Implementation); err != nil {
		return "", usageErrorf("--implementation: %v", err)
	}
	p.ControllerNameSet = c.Flags().Changed("controller-name")
	if slices.Contains(p.controllerNameFlag, "") {
		return "", usageErrorf("--controller-name must not be empty")
	}
	p.ControllerName = p.controllerNameFlag[0]
	if p.Limits.FileBytes, err = byteLimit("max-file-bytes", p.MaxFileBytes); err != nil {
		return "", err
	}
	if p.Limits.TotalBytes, err = byteLimit("max-total-bytes", p.MaxTotalBytes); err != nil {
		return "", err
	}
	if p.Limits.TotalExpandedBytes, err = byteLimit("max-total-expanded-bytes", p.MaxTotalExpanded); err != nil {
		return "", err
	}
	if err := p.sourceFlags.complete(p.Limits); err != nil {
		return "", err
	}
	if p.ControllerNameSet {
		p.ControllerNames = p.controllerNameFlag
	}
	if err := p.Findings.complete(c, p); err != nil {
		return "", err
	}
	if p.validation, err = parseValidate(p.Validate); err != nil {
		return "", usageErrorf("--validate: %v", err)
	}
	if _, err := load.OpenWorld(nil, nil, p.Assume); err != nil {
		return "", usageErrorf("%v", err)
	}
	for _, g := range p.Exclude {
		if _, err := path.Match(g, ""); err != nil {
			return "", usageErrorf("--exclude %q: %v", g, err)
		}
	}
	return f, nil
}

// noArgs rejects positional arguments with a hint, since the most likely
// one is a file name given without -f.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("unexpected argument %q for %q (pass manifests with -f %s)", args[0], c.CommandPath(), args[0])
	}
	return nil
}

// rootArgs rejects positional arguments to the root command, which can only
// be a mistyped command or a file name given without -f.
func rootArgs(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if strings.ContainsAny(args[0], "./") {
		return noArgs(c, args)
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
	}
	return usageErrorf("%s", msg)
}
