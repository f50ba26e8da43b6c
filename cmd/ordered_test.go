package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// TestWritePieces checks that pieces come out in order however long each
// takes to render, and that the first failing piece, in order, ends the
// output with its error.
func TestWritePieces(t *testing.T) {
	render := func(i int, out *bytes.Buffer) error {
		time.Sleep(time.Duration((7*i)%5) * time.Millisecond)
		fmt.Fprintf(out, "%d,", i)
		return nil
	}
	var got bytes.Buffer
	if err := writePieces(&got, pieces{n: 20, render: render}); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := range 20 {
		fmt.Fprintf(&want, "%d,", i)
	}
	if got.String() != want.String() {
		t.Errorf("writePieces wrote %q, want %q", got.String(), want.String())
	}

	errFive := errors.New("piece 5")
	failing := func(i int, out *bytes.Buffer) error {
		if i == 5 || i == 9 {
			if i == 9 {
				return errors.New("piece 9")
			}
			time.Sleep(5 * time.Millisecond)
			return errFive
		}
		fmt.Fprintf(out, "%d,", i)
		return nil
	}
	got.Reset()
	if err := writePieces(&got, pieces{n: 20, render: failing}); !errors.Is(err, errFive) {
		t.Errorf("error = %v, want the first failing piece's", err)
	}
	if got.String() != "0,1,2,3,4," {
		t.Errorf("output before the error = %q, want the pieces before it", got.String())
	}
	if err := writePieces(&got, pieces{n: 0, render: render}); err != nil {
		t.Errorf("no pieces: %v", err)
	}
}

// TestConcatPieces checks that concatenated pieces render and write in
// order, each list's write hook seeing its own pieces in order, empty
// lists included.
func TestConcatPieces(t *testing.T) {
	var seen []int
	numbered := pieces{
		n: 30,
		render: func(i int, out *bytes.Buffer) error {
			time.Sleep(time.Duration((3*i)%4) * time.Millisecond)
			fmt.Fprintf(out, "%d", i)
			return nil
		},
		write: func(w io.Writer, i int, b []byte) error {
			seen = append(seen, i)
			_, err := fmt.Fprintf(w, "[%s]", b)
			return err
		},
	}
	var got bytes.Buffer
	p := concatPieces(textPiece("a:"), pieces{}, numbered, textPiece(":b"), pieces{})
	if err := writePieces(&got, p); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	want.WriteString("a:")
	for i := range 30 {
		fmt.Fprintf(&want, "[%d]", i)
		if seen[i] != i {
			t.Errorf("write hook saw piece %d at %d", seen[i], i)
		}
	}
	want.WriteString(":b")
	if got.String() != want.String() {
		t.Errorf("wrote %q, want %q", got.String(), want.String())
	}
}
