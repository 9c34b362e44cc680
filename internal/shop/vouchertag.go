package shop

import (
	"strconv"
	"strings"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/voucher"
)

// VoucherTag is a shop's best voucher as its card shows it (GraphQL
// VoucherTag): "47.5代50", and 秒杀 for a flash sale.
type VoucherTag struct {
	VoucherID   int64  `json:"voucherId"`
	Label       string `json:"label"`
	PayValue    int64  `json:"payValue"`
	ActualValue int64  `json:"actualValue"`
	FlashSale   bool   `json:"flashSale"`
}

// BestVoucher is the tag of the best of a shop's on-sale vouchers (as the
// ShopVouchers dataloader gives them, flash sales that ended already left
// out): the largest share off its face value, then the most off, then the
// oldest. Nil when the shop has none worth a tag.
func BestVoucher(vs []*ent.Voucher, err error) (*VoucherTag, error) {
	if err != nil {
		return nil, err
	}
	var best *ent.Voucher
	for _, v := range vs {
		if v.ActualValue <= 0 || v.PayValue > v.ActualValue {
			continue // not a discount
		}
		if best == nil || better(v, best) {
			best = v
		}
	}
	if best == nil {
		return nil, nil
	}
	return &VoucherTag{
		VoucherID: best.ID, PayValue: best.PayValue, ActualValue: best.ActualValue,
		Label:     yuan(best.PayValue) + "代" + yuan(best.ActualValue),
		FlashSale: voucher.IsSeckill(best),
	}, nil
}

// better reports whether a is a better deal than b: a larger share off
// (compared by cross-multiplying, no rounding), then more off, then older.
func better(a, b *ent.Voucher) bool {
	offA, offB := a.ActualValue-a.PayValue, b.ActualValue-b.PayValue
	if l, r := offA*b.ActualValue, offB*a.ActualValue; l != r {
		return l > r
	}
	if offA != offB {
		return offA > offB
	}
	return a.ID < b.ID
}

// yuan writes fen as yuan without trailing zeros: 4750 is "47.5", 5000 "50".
func yuan(fen int64) string {
	s := strconv.FormatInt(fen/100, 10)
	if c := fen % 100; c != 0 {
		s += strings.TrimRight("."+strconv.FormatInt(c/10, 10)+strconv.FormatInt(c%10, 10), "0")
	}
	return s
}
