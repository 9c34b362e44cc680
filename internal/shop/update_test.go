package shop

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// Admins editing different fields of one shop at the same time all keep
// their edits: Update writes only the fields it is given. Each round, eight
// goroutines change eight different fields at once; afterwards every field
// holds its round's value (a read-modify-write of the whole row loses some).
func TestConcurrentEditsOfDifferentFieldsAllStick(t *testing.T) {
	forEach(t, func(t *testing.T, e env) {
		s := e.instance(t, nil)
		ctx := context.Background()
		const id = 1
		for round := range 15 {
			r := int64(round)
			tag := fmt.Sprint(round)
			edits := []UpdateInput{
				{Name: ptr("name " + tag)},
				{Address: ptr("address " + tag)},
				{Area: ptr("area " + tag)},
				{OpenHours: ptr("hours " + tag)},
				{Images: []string{"/imgs/" + tag + ".jpg"}},
				{AvgPrice: ptr(100 + r)},
				{X: ptr(120 + float64(r)/100)},
				{Y: ptr(30 + float64(r)/100)},
			}
			var wg sync.WaitGroup
			start := make(chan struct{})
			errs := make(chan error, len(edits))
			for _, in := range edits {
				wg.Go(func() {
					<-start
					if _, err := s.Update(asAdmin(ctx), id, in); err != nil {
						errs <- err
					}
				})
			}
			close(start)
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			sh, err := e.db.Client.Shop.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if sh.Name != "name "+tag || sh.Address != "address "+tag || sh.Area != "area "+tag ||
				sh.OpenHours != "hours "+tag || sh.Images != "/imgs/"+tag+".jpg" || sh.AvgPrice != 100+r ||
				sh.X != 120+float64(r)/100 || sh.Y != 30+float64(r)/100 {
				t.Fatalf("round %d lost an edit: %+v", round, sh)
			}
		}
	})
}
