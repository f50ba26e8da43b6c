package cmd

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/bench/synth"
)

// outputDigests are the SHA-256 digests of what `gwsim -f DIR` prints
// (routes, IR and status) over the standard generated sets (bench/synth),
// recorded before the performance work of issue 18. Speed-ups must not
// change a byte of the output; a change that legitimately changes it
// (a new condition, a new IR field) updates the digest here, and the
// golden cases show what changed. `go test ./cmd -run TestOutputDigest -v`
// prints the digests it computed.
var outputDigests = []struct {
	routes int
	// command, when set, comes before "-f DIR": a subcommand and its
	// flags.
	command []string
	// args follow "-f DIR". The 10k set is read with --validate=false:
	// admission does not change what a valid set prints (the digest with
	// validation is the same), and with it the test took 14 s.
	args   []string
	digest string
	short  bool // also run with -short (make race)
}{
	{routes: 1000, digest: "39c9c36b236c9fab5f5dd897907946aedc423fda20b530839f28ce3779a267b7", short: true},
	{routes: 10000, args: []string{"--validate=false"}, digest: "0749216bcbee220ba713e8b091075d54b6b4087d76ef175142cdcde5b321f11d"},
	// The same document in JSON, recorded when it was still written by
	// json.MarshalIndent whole (before jsonout).
	{routes: 1000, command: []string{"translate", "-o", "json"}, digest: "39031f175c3705542125556990976518443d69c935aba185e01411e470822195", short: true},
}

// TestOutputDigest runs the whole CLI's default output over the standard
// generated sets and compares its digest with the recorded one: the
// end-to-end check that a change to the loader, the store, the fixpoint
// loop or the renderers left the output byte-identical. The small sets
// run a second time with every fast path off (GWSIM_FASTPATH=off): the
// libraries must print the same bytes.
func TestOutputDigest(t *testing.T) {
	for _, c := range outputDigests {
		name := strings.Join(append([]string{synth.SizeName(c.routes)}, c.command...), " ")
		t.Run(name, func(t *testing.T) {
			if testing.Short() && !c.short {
				t.Skip("-short: only the small set")
			}
			checkDigest(t, c.routes, c.command, c.args, c.digest, "on")
		})
		if c.short {
			t.Run(name+" fastpath=off", func(t *testing.T) { checkDigest(t, c.routes, c.command, c.args, c.digest, "off") })
		}
	}
}

// checkDigest runs `gwsim COMMAND -f <set of routes> ARGS` with the fast
// paths as fast says and compares the digest of what it prints.
func checkDigest(t *testing.T, routes int, command, extra []string, digest, fast string) {
	dir := t.TempDir()
	if err := synth.Generate(synth.Standard(routes)).WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	var stderr strings.Builder
	args := append(append(slices.Clone(command), "-f", dir), extra...)
	if code := ExecuteWith(args, Streams{Out: h, Err: &stderr}, Env{Fastpath: fast}); code != exitOK {
		t.Fatalf("gwsim %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	got := hex.EncodeToString(h.Sum(nil))
	t.Logf("gwsim %s -f <%s set> %s (fast paths %s): sha256 %s", strings.Join(command, " "), synth.SizeName(routes), strings.Join(extra, " "), fast, got)
	if got != digest {
		t.Errorf("output digest %s, want %s: the output changed", got, digest)
	}
}
