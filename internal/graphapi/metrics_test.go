package graphapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/apperr"
)

// Only known names are labels: the web app's and the configured ones; the
// first names clients send take no slot.
func TestMetricsOperationNamesAreBounded(t *testing.T) {
	t.Parallel()
	m := NewMetrics(prometheus.NewRegistry(), "Configured")
	if m.label("") != "anonymous" || m.label("bad name!") != "other" {
		t.Fatal("labels for anonymous / malformed names")
	}
	for i := range 300 {
		if l := m.label("Op" + strconv.Itoa(i)); l != "other" {
			t.Fatalf("unknown name Op%d labelled %q", i, l)
		}
	}
	if m.label("Shop") != "Shop" || m.label("UploadImage") != "UploadImage" || m.label("Configured") != "Configured" {
		t.Fatal("the web app's and the configured names are not labels")
	}
}

// Every error handed to a client is counted by its code; a code outside
// apperr's list counts as "other".
func TestMetricsCountErrorsByCode(t *testing.T) {
	t.Parallel()
	m := NewMetrics(prometheus.NewRegistry())
	present := m.countErrors(presentError(slog.New(slog.DiscardHandler)))
	ctx := context.Background()
	_ = present(ctx, apperr.New(apperr.NotFound, "no shop 9"))
	_ = present(ctx, fmt.Errorf("wrapped: %w", apperr.New(apperr.NotFound, "no shop 8")))
	_ = present(ctx, errors.New("dial tcp: connection refused")) // internal
	ve := gqlerror.Errorf("Cannot query field")
	ve.Extensions = map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}
	_ = present(ctx, ve)
	odd := gqlerror.Errorf("odd")
	odd.Extensions = map[string]any{"code": "MADE_UP"}
	_ = present(ctx, odd)
	for code, want := range map[string]float64{
		"NOT_FOUND": 2, "INTERNAL_SERVER_ERROR": 1, "GRAPHQL_VALIDATION_FAILED": 1, "other": 1, "MADE_UP": 0,
	} {
		var d dto.Metric
		if err := m.errors.WithLabelValues(code).Write(&d); err != nil {
			t.Fatal(err)
		}
		if got := d.GetCounter().GetValue(); got != want {
			t.Errorf("errors{code=%q} = %v, want %v", code, got, want)
		}
	}
}
