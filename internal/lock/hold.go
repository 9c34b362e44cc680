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
	unlink   func()
	sig      *signal
	unlocked atomic.Bool
	release  func(ctx context.Context) error
}

func newHold(parent context.Context, name string, token int64, sig *signal, release func(context.Context) error) *Hold {
	ctx, cancel := context.WithCancelCause(parent)
	// The lock's fate reaches every hold of it, including re-entries made
	// with a context that does not derive from the first hold's.
	unlink := sig.attach(cancel)
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

// Context is the context given to TryLock (plus, for a reentrant lock, its
// owner), canceled when the lock is lost (cause ErrLockLost) or this hold is
// unlocked (cause ErrReleased). Run long work with it so the work stops when
// the lock goes away, and pass it to nested reentrant TryLock calls so they
// re-enter.
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

// signal is the shared fate of a lock's holds: it ends once, either lost or
// released, and cancels every attached hold's context before Lost closes, so
// a holder woken by Lost always finds the cause in its context.
type signal struct {
	onLost  func(why string) // counts and logs the loss before anyone is told
	mu      sync.Mutex
	ended   bool
	cause   error
	cancels map[*context.CancelCauseFunc]struct{}
	lost    chan struct{}
}

func newSignal(onLost func(why string)) *signal {
	return &signal{onLost: onLost, cancels: map[*context.CancelCauseFunc]struct{}{}, lost: make(chan struct{})}
}

// attach makes cancel run when the signal ends; the returned func detaches it.
func (s *signal) attach(cancel context.CancelCauseFunc) (detach func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		cancel(s.cause)
		return func() {}
	}
	p := &cancel
	s.cancels[p] = struct{}{}
	return func() {
		s.mu.Lock()
		delete(s.cancels, p)
		s.mu.Unlock()
	}
}

// lose ends the signal as lost (a no-op once ended).
func (s *signal) lose(why string) { s.end(fmt.Errorf("%w: %s", ErrLockLost, why), why) }

// release ends the signal as released.
func (s *signal) release() { s.end(ErrReleased, "") }

// end ends the signal with cause; why is set when the lock was lost.
func (s *signal) end(cause error, why string) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.ended, s.cause = true, cause
	cancels := s.cancels
	s.cancels = nil
	s.mu.Unlock()
	if why != "" && s.onLost != nil {
		s.onLost(why)
	}
	for c := range cancels {
		(*c)(cause)
	}
	if why != "" {
		close(s.lost)
	}
}
