package lock

import "github.com/hmdp/hmdp/lua"

// The lock scripts (lua/lock_*.lua), looked up once: lua.Script takes a
// package-wide mutex, which every lock and unlock would otherwise contend on.
// Each runs as EVALSHA, falling back to EVAL when a server lacks it.
var (
	scriptSimpleRelease    = lua.Script("lock_simple_release")
	scriptReentrantAcquire = lua.Script("lock_reentrant_acquire")
	scriptReentrantRelease = lua.Script("lock_reentrant_release")
	scriptReentrantRenew   = lua.Script("lock_reentrant_renew")
)
