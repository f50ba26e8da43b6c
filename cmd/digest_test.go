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
// loop or the renderers left the output byte-identical.
func TestOutputDigest(t *testing.T) {
	for _, c := range outputDigests {
		t.Run(strings.Join(append([]string{synth.SizeName(c.routes)}, c.command...), " "), func(t *testing.T) {
			if testing.Short() && !c.short {
				t.Skip("-short: only the small set")
			}
			dir := t.TempDir()
			if err := synth.Generate(synth.Standard(c.routes)).WriteDir(dir); err != nil {
				t.Fatal(err)
			}
			h := sha256.New()
			var stderr strings.Builder
			args := append(append(slices.Clone(c.command), "-f", dir), c.args...)
			if code := ExecuteWith(args, Streams{Out: h, Err: &stderr}, Env{}); code != exitOK {
				t.Fatalf("gwsim %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
			}
			got := hex.EncodeToString(h.Sum(nil))
			t.Logf("gwsim %s -f <%s set> %s: sha256 %s", strings.Join(c.command, " "), synth.SizeName(c.routes), strings.Join(c.args, " "), got)
			if got != c.digest {
				t.Errorf("output digest %s, want %s: the output changed", got, c.digest)
			}
		})
	}
}
