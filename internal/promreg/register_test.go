package promreg

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

func TestRegisterReusesTheFirstCollector(t *testing.T) {
	reg := prometheus.NewRegistry()
	opts := prometheus.CounterOpts{Name: "hmdp_test_total", Help: "test"}
	first := Register(reg, prometheus.NewCounterVec(opts, []string{"kind"}))
	second := Register(reg, prometheus.NewCounterVec(opts, []string{"kind"}))
	if first != second {
		t.Fatal("second registration did not return the first collector")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a clashing collector (other labels) did not panic")
		}
	}()
	Register(reg, prometheus.NewCounterVec(opts, []string{"other"}))
}
