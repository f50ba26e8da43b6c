package kustomize

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwsim/gwsim/diag"
)

func TestBuildOverlay(t *testing.T) {
	res, err := Build("testdata/overlay", &Budget{FileBytes: 1 << 20, TotalBytes: 1 << 20}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, o := range res.Objects {
		files = append(files, o.File)
		if strings.Contains(string(o.JSON), "config.kubernetes.io/origin") {
			t.Errorf("origin annotation kept: %s", o.JSON)
		}
		if !strings.Contains(string(o.JSON), `"namespace":"shop"`) || o.Data == nil {
			t.Errorf("object not in the overlay's namespace, or without its file's bytes: %s", o.JSON)
		}
	}
	want := []string{"testdata/base/gateway.yaml", "testdata/base/route.yaml", "testdata/base/route.yaml"}
	if strings.Join(files, ",") != strings.Join(want, ",") {
		t.Errorf("files = %v, want %v", files, want)
	}
	if len(res.Findings) != 2 || res.Findings[0].Reason != diag.ReasonNotBuilt || res.Findings[0].Source.Line != 5 ||
		!strings.Contains(res.Findings[1].Message, `helmCharts entry "podinfo (https://stefanprodan.github.io/podinfo)"`) {
		t.Errorf("findings = %v", res.Findings)
	}
	if len(res.Files) != 5 || len(res.Kustomizations) != 2 || filepath.Base(res.Kustomizations[0]) != "overlay" {
		t.Errorf("files read %v, kustomizations %v", res.Files, res.Kustomizations)
	}
}

func TestBuildBudget(t *testing.T) {
	_, err := Build("testdata/overlay", &Budget{FileBytes: 1 << 20, TotalBytes: 300}, Options{})
	if err == nil || !strings.Contains(err.Error(), "over the byte limit") {
		t.Errorf("err = %v, want the byte limit", err)
	}
}

func TestRemote(t *testing.T) {
	for entry, want := range map[string]bool{
		"../base": false, "route.yaml": false, "missing.yaml": false,
		"https://example.com/x.yaml": true, "github.com/org/repo/path?ref=v1": true,
		"git@github.com:org/repo.git": true, "ssh://git@host/repo": true, "host.example/org/repo//dir": true,
		"file:///etc/passwd": true,
	} {
		if got := remote(entry, "testdata/overlay"); got != want {
			t.Errorf("remote(%q) = %v, want %v", entry, got, want)
		}
	}
}
