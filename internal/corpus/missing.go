package corpus

import (
	"os"
	"testing"
)

// Missing ends a differential test whose corpus is not in the module
// cache: a skip on a developer's machine, a failure in CI (CI=true), where
// `make test` has downloaded every corpus and a missing one means the test
// would quietly check less than it claims.
func Missing(t testing.TB, what string, err error) {
	t.Helper()
	why := ""
	if err != nil {
		why = ": " + err.Error()
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing from the module cache (CI=true)%s", what, why)
	}
	t.Skipf("%s is not in the module cache%s", what, why)
}

// Without notes that a differential test runs without one of its corpora:
// a log line on a developer's machine (the test still checks the others),
// a failure in CI, for the reason Missing gives.
func Without(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing from the module cache (CI=true): the test would check less than it claims", what)
	}
	t.Logf("%s is not in the module cache: the test runs without it", what)
}
