package lock

import (
	"errors"
	"fmt"
)

// ErrNotAcquired means the lock stayed busy for the whole wait time.
var ErrNotAcquired = errors.New("lock: not acquired")

// ErrNotHeld is what a NotHeldError matches with errors.Is.
var ErrNotHeld = errors.New("lock: not held")

// ErrLockLost is the cause of a Hold's context when the lock was lost while
// held: the watchdog could not renew it, its key vanished, or a fixed lease ran out.
var ErrLockLost = errors.New("lock: lost")

// ErrReleased is the cause of a Hold's context after Unlock.
var ErrReleased = errors.New("lock: released")

// NotHeldError is returned by Unlock when the caller no longer holds the lock
// (its lease ran out and someone else may hold it now, or Unlock was already
// called on this Hold). Nothing was deleted: an owner never releases a lock it
// does not hold. It matches ErrNotHeld.
type NotHeldError struct {
	Name string // the lock name
}

func (e *NotHeldError) Error() string { return fmt.Sprintf("lock %q: not held by this owner", e.Name) }

// Is makes errors.Is(err, ErrNotHeld) true.
func (e *NotHeldError) Is(target error) bool { return target == ErrNotHeld }

func notAcquired(name string) error { return fmt.Errorf("lock %q: %w", name, ErrNotAcquired) }
