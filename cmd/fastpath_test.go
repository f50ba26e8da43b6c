package cmd

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/internal/fastpath"
	"github.com/gwsim/gwsim/offline"
)

// TestFastpathOffReachesEveryStage checks the escape hatch's wiring: with
// a component off, the stage that owns it gets the library. The golden
// cases, run with GWSIM_FASTPATH=off by make test, hold the bytes equal.
func TestFastpathOffReachesEveryStage(t *testing.T) {
	off := fastpath.Off()
	if got := storeFactory(Env{}, off); reflect.ValueOf(got).Pointer() != reflect.ValueOf(offline.FakeStore).Pointer() {
		t.Error("with the store's fast path off, the controller does not run against the fake client")
	}
	if got := storeFactory(Env{}, fastpath.Mode{}); got != nil {
		t.Error("with every fast path on, the store is not the default one")
	}
	yamlLib, jsonLib := libraryEncoders(newOutput(&bytes.Buffer{}, off))
	if !yamlLib || !jsonLib {
		t.Errorf("output with the encoders off: yaml library %v, json library %v", yamlLib, jsonLib)
	}
	var fast bytes.Buffer
	if err := writeYAML(newOutput(&fast, fastpath.Mode{}), map[string]any{"a": "x\u0085y"}); err != nil {
		t.Fatal(err)
	}
	var lib bytes.Buffer
	if err := writeYAML(newOutput(&lib, off), map[string]any{"a": "x\u0085y"}); err != nil {
		t.Fatal(err)
	}
	if fast.String() != lib.String() {
		t.Errorf("YAML output differs: fast %q, library %q", fast.String(), lib.String())
	}
}

func TestFastpathSettingIsChecked(t *testing.T) {
	var out, errOut bytes.Buffer
	code := ExecuteWith([]string{"routes", "-f", "-"}, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut}, Env{Fastpath: "yamlout,quick"})
	if code != exitUsage || !strings.Contains(errOut.String(), `unknown fast path "quick"`) {
		t.Errorf("GWSIM_FASTPATH=yamlout,quick: exit %d, stderr %q; want exit 2 naming the unknown fast path", code, errOut.String())
	}
	code = ExecuteWith([]string{"routes", "-f", "-", "--fastpath", "off"}, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut}, Env{Fastpath: "bogus"})
	if code == exitUsage {
		t.Errorf("--fastpath off did not override GWSIM_FASTPATH: exit %d, stderr %q", code, errOut.String())
	}
}
