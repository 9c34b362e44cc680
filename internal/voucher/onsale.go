package voucher

import "github.com/hmdp/hmdp/ent"

// OnSale reports whether v's own status is on sale (tb_voucher.status 1).
// It is all that decides for a normal voucher; a flash-sale voucher's sale
// window decides too (StatusOf).
func OnSale(v *ent.Voucher) bool { return v.Status == statusOn }
