package lock

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync/atomic"
)

// Reentrancy needs an owner identity. Java code (Redisson) uses the thread id;
// goroutines have none, so the owner travels in the context instead: a
// reentrant TryLock called with a context that carries an owner re-enters a
// lock that owner holds, and Hold.Context carries the owner it locked with.
// Passing a hold's context down the call chain is therefore what makes nested
// acquisitions re-enter, just as nested calls on one Java thread do.
//
// Owner ids are "<process id>:<sequence>"; they always contain a colon, which
// keeps them apart from the "fence" field of the lock hash.

type ownerKey struct{}

// processID tells this process's owners apart from other processes'.
var processID = randomHex(8)

var ownerSeq atomic.Uint64

func newOwner() string { return processID + ":" + strconv.FormatUint(ownerSeq.Add(1), 10) }

// WithOwner returns a context carrying a fresh owner identity. Every reentrant
// lock taken with it, or with a context derived from it, belongs to that owner.
// TryLock does this itself when ctx carries no owner yet; call WithOwner to make
// a group of calls one owner before the first of them locks anything.
func WithOwner(ctx context.Context) context.Context {
	return context.WithValue(ctx, ownerKey{}, newOwner())
}

// ownerOf returns ctx's owner, attaching a fresh one when it has none.
func ownerOf(ctx context.Context) (string, context.Context) {
	if o, ok := ctx.Value(ownerKey{}).(string); ok {
		return o, ctx
	}
	o := newOwner()
	return o, context.WithValue(ctx, ownerKey{}, o)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}
