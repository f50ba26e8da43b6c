package load

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// aliasBomb is the reproducer of issue 15 (repro/hardening/alias-amplification):
// one scalar of mb megabytes anchored once and aliased a thousand times.
func aliasBomb(mb int) string {
	s := strings.Repeat("x", mb*1000000)
	return "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: bomb, namespace: shop}\nspec:\n  bomb:\n" +
		`    a: &a ["` + s + "\"]\n" + "    b: [" + strings.TrimSuffix(strings.Repeat("*a,", 1000), ",") + "]\n"
}

// deepRoute is an HTTPRoute whose spec.deep is depth nested flow sequences
// (repro/hardening/deep-nesting-misleading-error).
func deepRoute(depth int) string {
	return "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: deep, namespace: shop}\nspec:\n  deep: " +
		strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n"
}

// allocated runs f and returns the bytes it allocated (all goroutines).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileInput loads each reproducer of issue 15 and checks the input
// error or warning it gives, with file:line where there is a document,
// and that the other objects still load.
func TestHostileInput(t *testing.T) {
	annotation := strings.Repeat("a", 256<<10)
	tests := []struct {
		name  string
		files map[string]string
		want  summary
	}{{
		name:  "alias amplification of a 1 MB scalar",
		files: map[string]string{"bomb.yaml": aliasBomb(1), "svc.yaml": serviceYAML},
		want: summary{
			Objects: []string{"Service default/web v1 @ svc.yaml:1"},
			Errors:  []string{"bomb.yaml:1: error: aliases expand this 1003135-byte document to more than 33554432 bytes; gwsim refuses it rather than run out of memory"},
		},
	}, {
		name:  "aliases within the limit",
		files: map[string]string{"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  a: &x hello\n  b: *x\n"},
		want:  summary{Objects: []string{"ConfigMap default/c v1 @ a.yaml:1"}},
	}, {
		name:  "nesting at the API server's depth limit",
		files: map[string]string{"deep.yaml": deepRoute(9999), "svc.yaml": serviceYAML},
		want: summary{
			Objects: []string{"Service default/web v1 @ svc.yaml:1"},
			Errors:  []string{"deep.yaml:1: error: objects and lists nest more than 10000 deep; the API server refuses the document"},
		},
	}, {
		name:  "nesting just within it",
		files: map[string]string{"deep.yaml": deepRoute(9998)},
		want: summary{
			Objects: []string{"HTTPRoute shop/deep gateway.networking.k8s.io/v1 @ deep.yaml:1"},
			// Admission prunes the unknown field and reports it at its own line.
			Findings: []string{"deep.yaml:5: warning: HTTPRoute shop/deep: spec.deep: unknown field; ignored, as the API server would drop it"},
		},
	}, {
		name: "annotations over 256 KiB, names over their length",
		files: map[string]string{
			"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  annotations: {a: " + annotation + "}\n",
			"b.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: " + strings.Repeat("s", 64) + "\n",
			"c.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: " + strings.Repeat("s", 254) + "\n  namespace: " + strings.Repeat("n", 64) + "\n",
			"d.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: " + strings.Repeat("s", 253) + "\n",
		},
		want: summary{
			Objects: []string{"Secret default/" + strings.Repeat("s", 253) + " v1 @ d.yaml:1"},
			Findings: []string{
				"a.yaml:1: error: ConfigMap default/big: metadata.annotations: Too long: may not be more than 262144 bytes; the API server refuses the object",
				"b.yaml:1: error: Service default/" + strings.Repeat("s", 64) + ": metadata.name: Too long: may not be more than 63 bytes; the API server refuses the object",
				"c.yaml:1: error: Secret " + strings.Repeat("n", 64) + "/" + strings.Repeat("s", 254) + ": metadata.name: Too long: may not be more than 253 bytes; the API server refuses the object",
				"c.yaml:1: error: Secret " + strings.Repeat("n", 64) + "/" + strings.Repeat("s", 254) + ": metadata.namespace: Too long: may not be more than 63 bytes; the API server refuses the object",
			},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			var res Result
			alloc := allocated(func() { res = Load(Options{Paths: []string{dir}}) })
			if diff := cmp.Diff(tt.want, summarize(dir, res)); diff != "" {
				t.Errorf("Load (-want +got):\n%s", diff)
			}
			// The reproducers took gigabytes; the acceptance bound is 200 MB.
			if alloc > 200<<20 {
				t.Errorf("Load allocated %d MB, want at most 200", alloc>>20)
			}
		})
	}
}

const serviceYAML = "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {ports: [{port: 80}]}\n"

// TestMetadataKeyCase: keys are matched case-sensitively, as the API
// server decodes them (repro/hardening/metadata-key-case). An object
// whose kind or name is spelt in another case has none: it is an error
// finding, left out, and the rest loads.
func TestMetadataKeyCase(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"svc.yaml":   "apiVersion: v1\nkind: Service\nMetadata:\n  name: web\n  namespace: default\n",
		"route.yaml": "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  NAME: web\nspec: {}\n",
		"kind.yaml":  "apiVersion: gateway.networking.k8s.io/v1\nKind: HTTPRoute\nmetadata:\n  name: web\nspec: {}\n",
		"apiv.yaml":  "ApiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata:\n  name: gc\n",
		"ns.yaml":    "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  Namespace: other\nspec: {ports: [{port: 80}]}\n",
	})
	want := summary{
		Objects: []string{"Service default/web v1 @ ns.yaml:1"},
		Findings: []string{
			"apiv.yaml:1: error: GatewayClass default/gc: missing apiVersion; every object needs apiVersion, kind and metadata.name",
			"kind.yaml:1: error: missing kind; every object needs apiVersion, kind and metadata.name",
			"ns.yaml:1: warning: Service default/web: metadata.Namespace: unknown field; ignored, as the API server would drop it",
			"route.yaml:1: error: HTTPRoute default/: missing metadata.name; every object needs apiVersion, kind and metadata.name",
			"svc.yaml:1: error: Service default/: missing metadata.name; every object needs apiVersion, kind and metadata.name",
		},
	}
	if diff := cmp.Diff(want, summarize(dir, Load(Options{Paths: []string{dir}}))); diff != "" {
		t.Errorf("Load (-want +got):\n%s", diff)
	}
}

// endless is a reader that never ends, like /dev/zero or `yes |`.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// TestByteLimits: every input is read within the per-input and total
// limits, whatever it is (repro/hardening/devzero-symlink-oom).
func TestByteLimits(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.yaml": serviceYAML, "b.yaml": strings.Repeat("#", 2000), "c.yaml": serviceYAML})
	small := Limits{FileBytes: 1000, TotalBytes: 1 << 20}
	t.Run("stdin", func(t *testing.T) {
		res := Load(Options{Paths: []string{"-"}, Stdin: io.MultiReader(strings.NewReader(serviceYAML), endless{}), Limits: small})
		want := summary{Errors: []string{"<stdin>: error: not read: larger than 1000 bytes, the limit per input (--max-file-bytes)"}}
		if diff := cmp.Diff(want, summarize(dir, res)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("file", func(t *testing.T) {
		res := Load(Options{Paths: []string{dir}, Limits: small})
		want := summary{
			Objects:  []string{"Service default/web v1 @ a.yaml:1"},
			Findings: []string{"c.yaml:1: warning: Service default/web: defined 2 times; also defined at a.yaml:1; keeping the one at a.yaml:1 and dropping this one: the definitions are identical"},
			Errors:   []string{"b.yaml: error: not read: larger than 1000 bytes, the limit per input (--max-file-bytes)"},
		}
		if diff := cmp.Diff(want, summarize(dir, res)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("total", func(t *testing.T) {
		res := Load(Options{Paths: []string{dir, dir, dir}, Limits: Limits{FileBytes: 4000, TotalBytes: 2200}})
		// a, b and c fit once (2,160 bytes); a second a would pass 2,200.
		want := summary{
			Objects:  []string{"Service default/web v1 @ a.yaml:1"},
			Findings: []string{"c.yaml:1: warning: Service default/web: defined 2 times; also defined at a.yaml:1; keeping the one at a.yaml:1 and dropping this one: the definitions are identical"},
			Errors: []string{
				"a.yaml: error: not read: with it, the inputs would hold more than 2200 bytes in total, the limit (--max-total-bytes); no further input is read",
				"b.yaml: error: not read, nor 4 more inputs after it: the inputs before it reach the limit of 2200 bytes in total (--max-total-bytes)",
			},
		}
		if diff := cmp.Diff(want, summarize(dir, res)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("device named with -f", func(t *testing.T) {
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero")
		}
		res := Load(Options{Paths: []string{"/dev/zero"}, Limits: small})
		want := summary{Errors: []string{"/dev/zero: error: not read: larger than 1000 bytes, the limit per input (--max-file-bytes)"}}
		if diff := cmp.Diff(want, summarize(dir, res)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

// TestSpecialFilesInDirectories: a directory's entries are read only when
// they are regular files; a link to /dev/zero or a FIFO is skipped with a
// warning, and never opened in a way that blocks
// (repro/hardening/devzero-symlink-oom, fifo-hang).
func TestSpecialFilesInDirectories(t *testing.T) {
	dir := writeFiles(t, map[string]string{"svc.yaml": serviceYAML, "target/x.yaml": serviceYAML})
	links := map[string]string{"zero.yaml": "/dev/zero", "link.yaml": filepath.Join(dir, "svc.yaml"), "dir.yaml": filepath.Join(dir, "target")}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("symbolic links: %v", err)
		}
	}
	want := summary{
		Objects: []string{"Service default/web v1 @ link.yaml:1"},
		Findings: []string{
			"dir.yaml: warning: skipped: a directory (reached through a symbolic link, which is not followed), not a regular file",
			"svc.yaml:1: warning: Service default/web: defined 2 times; also defined at link.yaml:1; keeping the one at link.yaml:1 and dropping this one: the definitions are identical",
			"zero.yaml: warning: skipped: a device, not a regular file",
		},
	}
	if mkfifo(filepath.Join(dir, "pipe.yaml")) == nil {
		want.Findings = slices.Insert(want.Findings, 1, "pipe.yaml: warning: skipped: a FIFO, not a regular file")
	}
	got := summarize(dir, Load(Options{Paths: []string{dir}}))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load (-want +got):\n%s", diff)
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{DefaultTotalBytes: "256 MiB", 2048: "2 KiB", 1000: "1000 bytes", 1<<20 + 1: "1048577 bytes"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// aliasDoc is an HTTPRoute whose spec.bomb anchors a scalar of size bytes
// and aliases it a thousand times.
func aliasDoc(i, size int) string {
	return fmt.Sprintf("apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: bomb%d, namespace: shop}\nspec:\n  bomb:\n", i) +
		`    a: &a ["` + strings.Repeat("x", size) + "\"]\n" + "    b: [" + strings.TrimSuffix(strings.Repeat("*a,", 1000), ",") + "]\n"
}

// TestAliasBudget: a 2 MB file of documents that each expand to just
// under the limit per document (repro/hardening/alias-amplification, which
// held each one's expansion at once: 3.8 GB) expands no more than the
// budget of the whole input. The documents are refused in input order
// once it is spent, and the others still load.
func TestAliasBudget(t *testing.T) {
	const scalar = 33000 // a thousand aliases of it: 33,039,153 bytes, under 32 MiB
	var docs []string
	size := 0
	for i := 0; size < 2_000_000; i++ {
		docs = append(docs, aliasDoc(i, scalar))
		size += len(docs[i]) + 4
	}
	dir := writeFiles(t, map[string]string{"bomb.yaml": strings.Join(docs, "---\n"), "svc.yaml": serviceYAML})
	var res Result
	alloc := allocated(func() { res = Load(Options{Paths: []string{dir}}) })
	got := summarize(dir, res)
	if want := []string{"HTTPRoute shop/bomb0 gateway.networking.k8s.io/v1 @ bomb.yaml:1", "Service default/web v1 @ svc.yaml:1"}; !slices.Equal(got.Objects, want) {
		t.Errorf("objects = %q, want %q", got.Objects, want)
	}
	if len(got.Errors) != len(docs)-1 {
		t.Fatalf("%d errors, want one per document after the first (%d)", len(got.Errors), len(docs)-1)
	}
	line := 1 + strings.Count(docs[0], "\n") + 1
	want := fmt.Sprintf("bomb.yaml:%d: error: aliases expand this %d-byte document to 33039153 bytes, and the documents before it to 33039153: more than 32 MiB in total (--max-total-expanded-bytes); gwsim refuses it rather than run out of memory",
		line, len(docs[1]))
	if got.Errors[0] != want {
		t.Errorf("first error:\n%s\nwant\n%s", got.Errors[0], want)
	}
	// One document's expansion, held a few times over while it decodes.
	if alloc > 300<<20 {
		t.Errorf("Load allocated %d MB, want at most 300", alloc>>20)
	}
	t.Run("flag", func(t *testing.T) {
		res := Load(Options{Paths: []string{dir}, Limits: Limits{TotalExpandedBytes: 1 << 20}})
		if n := len(res.Errors); n != len(docs) {
			t.Errorf("%d errors with a budget of 1 MiB, want %d (every document)", n, len(docs))
		}
	})
}

func TestHasAlias(t *testing.T) {
	for doc, want := range map[string]bool{
		"a: &x 1\nb: *x\n":               true,
		"a: &x [1]\nb: [*x]\n":           true,
		"{\"a\": &x 1, \"b\":*x}":        true,
		"*x\n&y":                         true,
		"hostnames: [\"*.example.com\"]": false,
		"a: \"*.x\"\nb: 'q&r'\n":         false,
		"a: b&c\nd: e*f\n":               false,
		"a: *x\n":                        false, // no anchor: nothing to expand
	} {
		if got := hasAlias([]byte(doc)); got != want {
			t.Errorf("hasAlias(%q) = %v, want %v", doc, got, want)
		}
	}
}
