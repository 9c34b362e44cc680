package lock

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// Hold is one successful acquisition of a lock. Unlock it exactly once,
// typically with defer; a second Unlock returns a NotHeldError.
type Hold struct {
	name     string
	token    int64
	ctx      context.Context
	cancel   context.CancelCauseFunc
	unlink   func() bool
	sig      *signal
	unlocked atomic.Bool
	release  func(ctx context.Context) error
}

func newHold(parent context.Context, name string, token int64, sig *signal, release func(context.Context) error) *Hold {
	ctx, cancel := context.WithCancelCause(parent)
	// The lock's fate reaches every hold of it, including re-entries made
	// with a context that does not derive from the first hold's.
	unlink := context.AfterFunc(sig.ctx, func() { cancel(context.Cause(sig.ctx)) })
	return &Hold{name: name, token: token, ctx: ctx, cancel: cancel, unlink: unlink, sig: sig, release: release}
}

// Name is the lock's name.
func (h *Hold) Name() string { return h.name }

// Token is the fencing token of a reentrant lock: it is larger than the token
// of every earlier holder of the same name, and re-entries share the first
// acquisition's token. Pass it with every write the lock protects and let the
// writer reject a token smaller than the largest it has seen: that stops a
// holder that stalled past its lease from overwriting its successor's work.
// Simple and multi-node locks have no token (0).
func (h *Hold) Token() int64 { return h.token }

// Context is the caller's context plus the lock owner, canceled when the lock
// is lost (cause ErrLockLost) or unlocked (cause ErrReleased). Run long work
// with it so the work stops when the lock goes away, and pass it to nested
// reentrant TryLock calls so they re-enter.
func (h *Hold) Context() context.Context { return h.ctx }

// Lost is closed when the lock is lost while held: the watchdog could not
// renew it, its key vanished, or its fixed lease ran out. It is not closed by Unlock.
func (h *Hold) Lost() <-chan struct{} { return h.sig.lost }

// Unlock releases this hold. A reentrant lock is released in Redis when its
// last hold is unlocked. Unlock runs even if ctx is already canceled (a
// finished request must still release its locks). It returns a NotHeldError
// when the lock was no longer held (nothing is deleted then).
func (h *Hold) Unlock(ctx context.Context) error {
	if h.unlocked.Swap(true) {
		return &NotHeldError{Name: h.name}
	}
	err := h.release(context.WithoutCancel(ctx))
	h.unlink()
	h.cancel(ErrReleased)
	return err
}

// signal is the shared fate of a lock's holds: it ends once, either lost or released.
type signal struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	lost   chan struct{}
	once   sync.Once
}

func newSignal() *signal {
	ctx, cancel := context.WithCancelCause(context.Background())
	return &signal{ctx: ctx, cancel: cancel, lost: make(chan struct{})}
}

// lose ends the signal as lost; it reports whether this call ended it.
func (s *signal) lose(why string) (ended bool) {
	s.once.Do(func() {
		ended = true
		close(s.lost)
		s.cancel(fmt.Errorf("%w: %s", ErrLockLost, why))
	})
	return ended
}

// release ends the signal as released.
func (s *signal) release() { s.once.Do(func() { s.cancel(ErrReleased) }) }
