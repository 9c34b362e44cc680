// Package seckill is the flash sale (优惠券秒杀): admission decided by one Lua
// script on Redis, orders persisted to MySQL asynchronously from a Redis
// Stream per voucher by consumers in every server instance.
//
// Keys, for prefix p and voucher V (all share the hash tag {V}, so each script
// stays in one Redis Cluster slot):
//
//	p + "seckill:{V}:state"   hash: stock, begin, end (unix ms)
//	p + "seckill:{V}:buyers"  hash: user id -> order id, plus the sentinel "0"
//	p + "seckill:{V}:orders"  stream of accepted orders (group "persist")
//	p + "seckill:{V}:dead"    dead-letter stream
//	p + "seckill:{V}:limit:U" user U's attempts on the sale (GCRA arrival time, ms; expires)
//	p + "seckill:{V}:token:U" user U's single-use anti-bot token (expires)
//	p + "seckill:{V}:rejected" hash: order id -> "user:reason" of orders ended unpersisted
//	p + "seckill:{V}:epoch"   random id of the last rebuild of the state (epoch.go)
//	p + "seckill:{V}:replicated" counter the replica waiter writes before WAIT (wait.go)
//	"seckill-rebuild-V"       name of the lock (internal/lock) for rebuilding the state
//
// MySQL is the source of truth: the state is written
// after the voucher's transaction commits and rebuilt from MySQL whenever it
// is missing; the unique key (user_id, voucher_id) and the conditional stock
// update decide finally.
package seckill

import "strconv"

// Group is the consumer group of every order stream.
const Group = "persist"

// Keys are the Redis keys of one voucher's sale.
type Keys struct {
	State, Buyers, Orders, Dead, Rejected, Epoch, Lock string
}

// KeysOf returns the keys of voucher id under prefix.
func KeysOf(prefix string, id int64) Keys {
	base := prefix + "seckill:{" + strconv.FormatInt(id, 10) + "}:"
	return Keys{
		State:  base + "state",
		Buyers: base + "buyers",
		Orders: base + "orders",
		Dead:   base + "dead",
		// Rejected orders, so order(id) shows them ended rather than absent.
		Rejected: base + "rejected",
		Epoch:    base + "epoch",
		Lock:     "seckill-rebuild-" + strconv.FormatInt(id, 10),
	}
}

// Limit is the key of userID's per-user attempt limit on the sale.
func (k Keys) Limit(userID int64) string {
	return k.State[:len(k.State)-len("state")] + "limit:" + strconv.FormatInt(userID, 10)
}

// replicated is the marker the replica waiter writes on the sale's master
// before WAIT (wait.go): under the sale's hash tag, so on its slot's master.
func (k Keys) replicated() string {
	return k.State[:len(k.State)-len("state")] + "replicated"
}

// Token is the key of userID's anti-bot token for the sale (token.go).
func (k Keys) Token(userID int64) string {
	return k.State[:len(k.State)-len("state")] + "token:" + strconv.FormatInt(userID, 10)
}
