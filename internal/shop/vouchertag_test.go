package shop

import (
	"errors"
	"testing"

	"github.com/hmdp/hmdp/ent"
)

// The best voucher is the largest share off, then the most off, then the
// oldest; its label is in yuan without trailing zeros; a flash sale says so.
func TestBestVoucher(t *testing.T) {
	v := func(id, pay, actual int64, typ int) *ent.Voucher {
		return &ent.Voucher{ID: id, PayValue: pay, ActualValue: actual, Type: typ}
	}
	cases := []struct {
		name string
		in   []*ent.Voucher
		want *VoucherTag
	}{
		{"none", nil, nil},
		{"no discount", []*ent.Voucher{v(1, 120, 100, 0), v(2, 0, 0, 0)}, nil},
		{"seed", []*ent.Voucher{v(1, 4750, 5000, 0)}, &VoucherTag{VoucherID: 1, Label: "47.5代50", PayValue: 4750, ActualValue: 5000}},
		{"share wins", []*ent.Voucher{v(1, 8000, 10000, 0), v(2, 5000, 10000, 1), v(3, 9000, 20000, 0)},
			&VoucherTag{VoucherID: 3, Label: "90代200", PayValue: 9000, ActualValue: 20000}},
		{"flash sale", []*ent.Voucher{v(1, 8000, 10000, 0), v(2, 5000, 10000, 1)},
			&VoucherTag{VoucherID: 2, Label: "50代100", PayValue: 5000, ActualValue: 10000, FlashSale: true}},
		{"equal share: more off", []*ent.Voucher{v(1, 2500, 5000, 0), v(2, 5000, 10000, 0)},
			&VoucherTag{VoucherID: 2, Label: "50代100", PayValue: 5000, ActualValue: 10000}},
		{"equal deal: oldest", []*ent.Voucher{v(4, 5000, 10000, 0), v(2, 5000, 10000, 0)},
			&VoucherTag{VoucherID: 2, Label: "50代100", PayValue: 5000, ActualValue: 10000}},
		{"cents", []*ent.Voucher{v(1, 1999, 2005, 0)}, &VoucherTag{VoucherID: 1, Label: "19.99代20.05", PayValue: 1999, ActualValue: 2005}},
	}
	for _, c := range cases {
		got, err := BestVoucher(c.in, nil)
		if err != nil || (got == nil) != (c.want == nil) || (got != nil && *got != *c.want) {
			t.Errorf("%s: got %+v %v, want %+v", c.name, got, err, c.want)
		}
	}
	boom := errors.New("boom")
	if _, err := BestVoucher(nil, boom); !errors.Is(err, boom) {
		t.Errorf("error not passed on: %v", err)
	}
}
