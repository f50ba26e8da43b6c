package yamlout

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// splitEncode encodes v as a Split with runs of run items, every part on
// a goroutine of its own, and joins the parts in order.
func splitEncode(v any, run int) ([]byte, error) {
	s, err := NewEncoder(nil).Split(v, run)
	if err != nil {
		return nil, err
	}
	bufs := make([]bytes.Buffer, s.Len())
	errs := make([]error, s.Len())
	var wg sync.WaitGroup
	for i := range s.Len() {
		wg.Go(func() { errs[i] = s.EncodePart(i, &bufs[i]) })
	}
	wg.Wait()
	var out bytes.Buffer
	for i := range s.Len() {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if err := s.WritePart(&out, i, bufs[i].Bytes()); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}

// sameSplit checks that v's document cut into runs of every size up to
// three items, so that every sequence is cut everywhere, joins to want,
// or fails as Encode did.
func sameSplit(t *testing.T, name string, v any, want []byte, wantErr error) {
	t.Helper()
	for run := 1; run <= 3; run++ {
		got, err := splitEncode(v, run)
		if (err != nil) != (wantErr != nil) || err == nil && !bytes.Equal(got, want) {
			t.Errorf("%s: split in runs of %d differs (errors %v, %v)\n--- want\n%s\n--- split\n%s", name, run, wantErr, err, want, got)
		}
	}
}

// TestSplitLiteral cuts around literal block scalars, after which the
// emitter stands at the start of a line (the one cursor after a value that
// is not "inside a line").
func TestSplitLiteral(t *testing.T) {
	for _, v := range []any{
		[]any{"a\nb\n", "c\n", map[string]any{"k": []any{"x\n", "y\n\n", []any{"z\n"}}}, "tail\n"},
		map[string]any{"a": []any{"x\n", "y\n"}, "b": "c\n", "d": []any{[]string{"1\n", "2\n"}, "3"}},
		[]any{[]any{}, map[string]any{}, nil, []any{"p\n", "q"}},
	} {
		want, err := Marshal(v)
		sameSplit(t, fmt.Sprint(v), v, want, err)
	}
}
