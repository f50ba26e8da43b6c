package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline"
	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/offline/validate"
	"github.com/gwsim/gwsim/profile"
	"github.com/gwsim/gwsim/translate"
)

// translateTime stamps every condition's lastTransitionTime. It is the Unix
// epoch (1970-01-01T00:00:00Z) so that output is byte-for-byte reproducible
// and obviously not a real transition time.
func translateTime() metav1.Time { return metav1.NewTime(time.Unix(0, 0).UTC()) }

// outcome is what the pipeline hands to a renderer.
type outcome struct {
	Result *offline.Result
	// Findings holds every finding not suppressed, sorted: loader,
	// assumptions, translation and unhealthy conditions in status.
	Findings []diag.Finding
	// Suppressed are the findings --ignore, the config file or an
	// annotation took out; they are counted, never lost.
	Suppressed []diag.Suppressed
	// Failed is true when the run must exit 1: a finding at or above the
	// failure threshold (error by default, and every unhealthy condition in
	// status is an error, but for informational ones such as a listener's
	// OverlappingTLSConfig, which are warnings).
	Failed bool
	// Threshold is the least severity that fails the run.
	Threshold diag.Severity
	// Assumed counts the objects gwsim made up.
	Assumed int
	// Sources says where each loaded object starts, for commands that
	// point at YAML outside of findings (explain).
	Sources diag.Sources
	// Policies are the implementation's policies of the input (explain
	// lists those that target a step).
	Policies []translate.PolicyAttachment
	// Root is the repository root the CI formats locate files against
	// (findRepoRoot); set for check only.
	Root string
	// Unread marks the outcome of an input that could not be read: it
	// holds the input errors alone.
	Unread bool
	// Columns is the width of the terminal stdout is, or 0 when it is
	// none; set for check only.
	Columns int
	// Channel is the CRD channel the objects were admitted under (the one
	// --channel auto chose, or the one asked for).
	Channel validate.Channel
}

// runPipeline is the one path from flags to results that every command
// shares: load, assume what is missing, run the controller to fixpoint. Load
// errors and a fixpoint that does not settle end the command with exit 2.
func runPipeline(ctx context.Context, p *pipelineFlags, streams Streams, env Env) (outcome, error) {
	loaded := load.Load(load.Options{
		Paths:     p.Files,
		Recursive: p.Recursive,
		Kustomize: p.Kustomize, NoKustomize: p.NoKustomize, Vars: p.Vars,
		Stdin:     streams.In,
		Namespace: p.Namespace,
		Exclude:   p.Exclude,
		// complete checked the name.
		Channel:      validate.Channel(p.Channel),
		NoValidation: p.validation.off,
		Fields:       p.validation.fields,
		Limits:       p.Limits,
		// complete checked both.
		Admission:      load.Admission(p.Admission),
		Implementation: profile.Name(p.Implementation),
		Fastpath:       streams.fastMode(),
	})
	if streams.placeholders != nil {
		streams.placeholders.set(loaded.Placeholders)
	}
	platform := loadPlatformGateways(p, loaded, streams.fastMode())
	markStage(ctx, "load")
	if errs := append(loaded.Errors, platform.errors...); len(errs) > 0 {
		errs = diag.Sort(diag.WithCodes(errs))
		printFindings(streams.Err, errs)
		return outcome{}, &exitError{code: exitUsage, inputErrors: errs}
	}
	objs, assumed := load.AssumeMissing(append(loaded.Objects, platform.gateways...), p.ControllerName)
	// A rejected object is no evidence that its kind lives elsewhere.
	world, err := load.OpenWorld(objs, append(slices.Clip(loaded.Others), loaded.Rejected...), p.Assume)
	if err != nil {
		return outcome{}, usageErrorf("%v", err)
	}
	opts := offline.Options{Translate: translate.Options{Now: translateTime(), OpenWorld: world}, Store: storeFactory(env, streams.fastMode()), OtherObjects: loaded.Others,
		Stage: func(name string) { markStage(ctx, name) }}
	opts.Translate.ControllerNames = p.ControllerNames
	opts.Translate.Implementation = profile.Name(p.Implementation)
	// What is needed of the loaded objects after the run is taken now, and
	// they are dropped: the store keeps a copy of each one's top level, and
	// holding the originals too through the run cost about 450 bytes per
	// object of live heap at the run's peak (130 MB at 100,000 routes).
	ann := readAnnotations(loaded.Objects, loaded.Sources)
	nLoaded, nAssumed := len(loaded.Objects), len(objs)-len(loaded.Objects)-len(platform.gateways)
	loaded.Objects = nil
	res, err := offline.Run(ctx, objs, loaded.Sources, opts)
	if err != nil {
		// The loader hands the store only objects it accepts, and the
		// controller settles on any input: an error here is gwsim's.
		return outcome{}, bugError(runError(err, loaded.Sources))
	}
	unhealthy := translate.ConditionFindings(res.Objects, loaded.Sources)
	var all []diag.Finding
	all = append(all, loaded.Findings...)
	all = append(all, assumed...)
	all = append(all, res.Output.Findings...)
	all = append(all, unhealthy...)
	// A policy whose effect is simulated has findings of its own
	// (attachment, status) and steps in explain instead.
	simulated := res.Output.SimulatedPolicies()
	notSimulated := slices.DeleteFunc(slices.Clone(loaded.Policies), func(p translate.PolicyAttachment) bool { return simulated[p.Ref()] })
	all = append(all, translate.PolicyFindings(notSimulated, func(ref diag.ObjectRef) bool {
		// Sources name a kind without its group (ServiceImport, where a
		// target names multicluster.x-k8s.io/ServiceImport).
		_, ok := loaded.Sources[ref]
		if _, kind, grouped := strings.Cut(ref.Kind, "/"); grouped && !ok {
			_, ok = loaded.Sources[diag.ObjectRef{Kind: kind, Namespace: ref.Namespace, Name: ref.Name}]
		}
		return ok || platform.refs[ref]
	})...)
	all = platform.dropFindings(all)
	sources := findingSources(loaded)
	pol := applyPolicy(all, ann, p, func(fs []diag.Finding) { loaded.Origins.FieldLines(fs, sources) })
	markStage(ctx, "findings")
	out := outcome{
		Result:     res,
		Findings:   pol.Kept,
		Suppressed: pol.Suppressed,
		Failed:     pol.Failed,
		Threshold:  p.Findings.policy.Threshold,
		Assumed:    nAssumed,
		Sources:    loaded.Sources,
		Policies:   loaded.Policies,
		Channel:    loaded.Channel,
	}
	if p.Verbose {
		printVerbose(streams.Err, out, nLoaded, p.Findings.configPath)
	}
	return out, nil
}

// runError names where each object that did not settle is defined, so
// that the report points at the input that shows the bug.
func runError(err error, sources diag.Sources) error {
	var ns *offline.NotSettledError
	if !errors.As(err, &ns) {
		return err
	}
	names := make([]string, len(ns.Changed))
	for i, r := range ns.Changed {
		names[i] = r.String()
		if src := sources.Of(r); src.File != "" {
			names[i] += " (" + src.String() + ")"
		}
	}
	return fmt.Errorf("status did not settle after %d passes; still changing: %s", ns.Passes, strings.Join(names, ", "))
}

// escalate turns every finding about something gwsim assumed (a missing
// GatewayClass, Secret, Service, ConfigMap or parent Gateway, a namespace's
// labels) into an error (--strict).
func escalate(fs []diag.Finding) []diag.Finding {
	out := make([]diag.Finding, len(fs))
	for i, f := range fs {
		if diag.IsStrictError(f.Reason) {
			f.Severity = diag.Error
		}
		out[i] = f
	}
	return out
}

// finish reports on stderr what a non-check command found and returns the
// exit status: warnings and errors are always listed, infos only with -v,
// and a summary line follows whenever there is anything to say. stdout
// carries only the requested output, so -o json stays parseable.
func finish(w io.Writer, out outcome, verbose bool) error {
	var shown []diag.Finding
	for _, f := range out.Findings {
		if verbose || f.Severity >= diag.Warning {
			shown = append(shown, f)
		}
	}
	printFindings(w, shown)
	if len(out.Findings)+len(out.Suppressed) > 0 {
		fmt.Fprintf(w, "gwsim: %s (run gwsim check for the full list)\n", summarize(out.Findings, out.Suppressed))
	}
	return exitFor(out)
}

// exitFor turns an outcome into the command's result: exit 1 on failure.
func exitFor(out outcome) error {
	if out.Failed {
		return &exitError{code: exitFindings}
	}
	return nil
}

// findingSources are the document starts FieldLines places findings by:
// the loaded objects' and the policies' (which the loader keeps apart, as
// gwsim does not model them, but whose targetRefs findings point at).
func findingSources(loaded load.Result) diag.Sources {
	if len(loaded.Policies) == 0 {
		return loaded.Sources
	}
	sources := maps.Clone(loaded.Sources)
	for _, p := range loaded.Policies {
		sources[p.Ref()] = p.Source
	}
	return sources
}

func printFindings(w io.Writer, fs []diag.Finding) {
	for _, f := range fs {
		fmt.Fprintln(w, f.String())
	}
}
