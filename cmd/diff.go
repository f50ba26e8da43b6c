package cmd

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/gwsim/gwsim/diag"
	"github.com/gwsim/gwsim/offline/load"
	"github.com/gwsim/gwsim/offline/scheme"
	"github.com/gwsim/gwsim/offline/validate"
	"github.com/gwsim/gwsim/translate/diff"
)

const diffLong = `Diff says what a change to the manifests does to routing, before it is
applied: it runs gwsim on the old and the new version and compares the
results in Gateway API terms.

  1. Routing table changes: per Gateway, port and host, the route matches
     added, removed and changed (backends, weights, filters, redirect,
     timeouts), and matches that an earlier match now shadows, or no longer
     does.
  2. Request impact: a representative request for every match of either
     version, built from the match (path, method, headers, query), run
     through both; the requests whose outcome changes.
  3. Status changes: condition transitions per object, parent and
     listener, and attachedRoutes.
  4. Findings introduced and fixed, ignoring line shifts.

OLD and NEW are read as -f reads them (a file, a directory, -R to recurse,
- for stdin on one side). With --base REV, OLD is the -f paths and -k
directories as they are at the git revision REV (read from its tree with
git ls-tree and git cat-file: export attributes do not apply, links in the
tree are followed; the work tree is not touched), with the bases and
components their kustomizations name elsewhere in the repository, and NEW
is the same paths as they are on disk.

-o markdown renders a pull-request comment: a one-line summary, then one
collapsible section per part.

Exit codes:
  0  nothing changed (or nothing --fail-on names)
  1  something changed (with --fail-on: a new error finding, or a request
     whose outcome changes)
  2  usage error, unreadable or unparsable input on either side`

const diffExample = `  gwsim diff old/ new/ -R
  gwsim diff --base origin/main -f manifests/ -R -o markdown
  gwsim diff --base HEAD -f deploy/gateway.yaml -f deploy/routes/ --fail-on new-errors
  kustomize build . | gwsim diff rendered-main.yaml -f -`

// formatMarkdown renders a pull-request comment (diff) or a job summary
// (check).
const formatMarkdown format = "markdown"

// Values of --fail-on.
const (
	failOnAny            = "any"
	failOnNewErrors      = "new-errors"
	failOnRequestChanges = "request-changes"
)

// diffFlags are the flags of `gwsim diff` beyond the shared ones.
type diffFlags struct {
	pipeline pipelineFlags
	Base     string
	FailOn   []string
}

// diffCommand is `gwsim diff OLD NEW` and `gwsim diff --base REV -f PATHS`.
func diffCommand(streams Streams, env Env) *cobra.Command {
	flags := &diffFlags{}
	c := &cobra.Command{
		Use:     "diff OLD NEW | diff --base REV -f PATHS",
		Short:   "Show what a change to the manifests does to routing, status and findings",
		Long:    diffLong,
		Example: diffExample,
		Args:    cobra.MaximumNArgs(2),
	}
	c.RunE = func(c *cobra.Command, args []string) error { return flags.run(c, args, streams, env) }
	flags.pipeline.register(c, formatText, formatJSON, formatMarkdown)
	fs := c.Flags()
	fs.StringVar(&flags.Base, "base", "", "git revision that holds the old version of the -f paths")
	fs.StringSliceVar(&flags.FailOn, "fail-on", []string{failOnAny},
		"what makes the exit code 1: any (any change), new-errors (a new error finding), request-changes (a request's outcome changes); comma-separated")
	return c
}

// sides works out where OLD and NEW come from. It fills the shared flags'
// Files with NEW, so that complete() sees an input.
func (d *diffFlags) sides(c *cobra.Command, args []string) ([]string, error) {
	newSet := c.Flags().Changed("filename")
	switch {
	case d.Base != "" && len(args) > 0:
		return nil, usageErrorf("--base reads OLD from git: pass the paths with -f, not as arguments (got %q)", args[0])
	case d.Base != "":
		return nil, nil
	case len(args) == 2 && !newSet:
		d.pipeline.Files = []string{args[1]}
		return []string{args[0]}, nil
	case len(args) == 1 && newSet:
		return []string{args[0]}, nil
	case len(args) == 2:
		return nil, usageErrorf("NEW is given twice: as %q and with -f", args[1])
	}
	return nil, usageErrorf("pass OLD and NEW (gwsim diff old/ new/), or --base REV with -f PATHS")
}

func (d *diffFlags) checkFailOn() error {
	valid := []string{failOnAny, failOnNewErrors, failOnRequestChanges}
	for _, v := range d.FailOn {
		if !slices.Contains(valid, v) {
			return usageErrorf("unknown --fail-on %q (valid: %s)", v, strings.Join(valid, ", "))
		}
	}
	return nil
}

func (d *diffFlags) run(c *cobra.Command, args []string, streams Streams, env Env) error {
	oldFiles, err := d.sides(c, args)
	if err != nil {
		return err
	}
	f, err := d.pipeline.complete(c)
	if err != nil {
		return err
	}
	if err := d.checkFailOn(); err != nil {
		return err
	}
	oldFlags := d.pipeline
	oldFlags.Files = oldFiles
	var rename func([]diag.Finding)
	if d.Base != "" {
		dir, err := os.MkdirTemp("", "gwsim-base-")
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		defer os.RemoveAll(dir)
		limit := d.pipeline.Limits.FileBytes
		if limit <= 0 {
			limit = load.DefaultFileBytes
		}
		side, err := exportBase(c.Context(), d.Base, d.pipeline.Files, d.pipeline.Kustomize, dir, limit)
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		oldFlags.Files, oldFlags.Kustomize = side.files, side.kustomize
		rename = func(fs []diag.Finding) { renameSources(fs, dir, d.Base) }
	}
	if slices.Contains(oldFlags.Files, "-") && slices.Contains(d.pipeline.Files, "-") {
		return usageErrorf("standard input (-) can be OLD or NEW, not both")
	}
	before, after, err := runSides(c.Context(), &oldFlags, &d.pipeline, streams, env)
	if err != nil {
		return err
	}
	if rename != nil {
		rename(before.Findings)
	}
	report := diff.Compare(
		diff.Side{Output: before.Result.Output, Findings: before.Findings, Objects: objectsByRef(before.Result.Objects)},
		diff.Side{Output: after.Result.Output, Findings: after.Findings, Objects: objectsByRef(after.Result.Objects)})
	w := newOutput(streams.Out, streams.fastMode())
	if err := renderDiff(w, f, report); err != nil {
		return outputError(w, "output", err)
	}
	if err := flushOut(streams.Out); err != nil {
		return writeError("output", err)
	}
	if d.fails(report) {
		return &exitError{code: exitFindings}
	}
	return nil
}

// runSides runs the pipeline on OLD and on NEW. Under --channel auto the
// two sides must be admitted under one channel, or the diff would show
// what the channel changes (pruned and defaulted fields) as a change of
// the input: when one side needs the experimental channel, the other is
// run again under it. That side then has no GWS1021 finding of its own,
// so the diff lists the channel choice as introduced or fixed, which is
// what the change does to the CRDs a cluster needs. Standard input, which
// cannot be read twice, is kept as the first run reads it.
func runSides(ctx context.Context, oldFlags, newFlags *pipelineFlags, streams Streams, env Env) (before, after outcome, err error) {
	var stdin bytes.Buffer
	first := streams
	first.In = io.TeeReader(streams.In, &stdin)
	if before, err = runPipeline(ctx, oldFlags, first, env); err != nil {
		return before, after, err
	}
	if after, err = runPipeline(ctx, newFlags, first, env); err != nil {
		return before, after, err
	}
	if newFlags.Channel != string(load.ChannelAuto) || before.Channel == after.Channel {
		return before, after, nil
	}
	again := streams
	again.In = bytes.NewReader(stdin.Bytes())
	if before.Channel == validate.Standard {
		flags := *oldFlags
		flags.Channel = string(validate.Experimental)
		before, err = runPipeline(ctx, &flags, again, env)
	} else {
		flags := *newFlags
		flags.Channel = string(validate.Experimental)
		after, err = runPipeline(ctx, &flags, again, env)
	}
	return before, after, err
}

// objectsByRef keys objects by the reference findings use.
func objectsByRef(objs []client.Object) map[diag.ObjectRef]client.Object {
	s := scheme.New()
	out := make(map[diag.ObjectRef]client.Object, len(objs))
	for _, o := range objs {
		out[objectRef(o, s)] = o
	}
	return out
}

// fails applies --fail-on to a report.
func (d *diffFlags) fails(r diff.Report) bool {
	for _, v := range d.FailOn {
		switch {
		case v == failOnAny && !r.Empty(),
			v == failOnNewErrors && r.Summary.NewErrors > 0,
			v == failOnRequestChanges && (r.Summary.RequestsChanged > 0 || r.Summary.ElsewhereChanged > 0):
			return true
		}
	}
	return false
}

// renameSources points findings of files exported from git at
// "REV:path" instead of the temporary directory they were read from.
func renameSources(fs []diag.Finding, dir, rev string) {
	prefix := dir + string(filepath.Separator)
	for i := range fs {
		if rest, ok := strings.CutPrefix(fs[i].Source.File, prefix); ok {
			fs[i].Source.File = rev + ":" + filepath.ToSlash(rest)
		}
		// A message may quote a path of the export too (a build that
		// failed, a directory not found); the temporary directory's
		// name must never reach the output.
		fs[i].Message = strings.ReplaceAll(fs[i].Message, prefix, rev+":")
	}
}
