// Package crash carries a panic from a worker goroutine to the goroutine
// that waits for the workers, so that gwsim's one recover, at the top of
// cmd.Execute, sees every bug: a panic on any other goroutine would kill
// the process with the Go runtime's exit code 2, which gwsim reserves for
// bad input.
package crash

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// Panic is a recovered panic with the stack of the goroutine it happened
// on.
type Panic struct {
	Value any
	Stack []byte
}

func (p *Panic) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// Catch runs fn and returns the panic it raised, or nil.
func Catch(fn func()) (p *Panic) {
	defer func() {
		if r := recover(); r != nil {
			if inner, ok := r.(*Panic); ok {
				p = inner
				return
			}
			p = &Panic{Value: r, Stack: debug.Stack()}
		}
	}()
	fn()
	return nil
}

// First keeps the first of the panics that several goroutines recover.
// The zero First is ready to use.
type First struct {
	mu sync.Mutex
	p  *Panic
}

// Catch runs fn and keeps its panic, if it raised one and is the first.
// It returns whether fn completed.
func (f *First) Catch(fn func()) bool {
	p := Catch(fn)
	if p == nil {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.p == nil {
		f.p = p
	}
	return false
}

// Raise panics with the first panic kept, if any. Call it on the
// goroutine that waited for the others, once they are done.
func (f *First) Raise() {
	f.mu.Lock()
	p := f.p
	f.mu.Unlock()
	if p != nil {
		panic(p)
	}
}
