package binlog_test

import (
	"context"
	"errors"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hmdp/hmdp/internal/binlog"
)

// A tailer that cannot work (here: a DSN that is not tcp) and is closed
// leaves no metrics behind: its leader gauge of 0 would otherwise read as
// "no instance tails the binlog" on every instance of a deployment without
// one, and page an operator (HmdpBinlogNoLeader).
func TestClosedTailerUnregistersItsMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	names := func() map[string]bool {
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, mf := range mfs {
			out[mf.GetName()] = true
		}
		return out
	}
	tl, err := binlog.New(binlog.Config{DSN: "root@unix(/nonexistent.sock)/hmdp", Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	if !names()["hmdp_binlog_leader"] {
		t.Fatal("no hmdp_binlog_leader while the tailer is open")
	}
	if err := tl.Check(context.Background()); !errors.Is(err, binlog.ErrUnavailable) {
		t.Fatalf("Check: %v, want ErrUnavailable", err)
	}
	tl.Close()
	if n := names(); n["hmdp_binlog_leader"] || n["hmdp_binlog_rows_total"] {
		t.Fatalf("metrics left after Close: %v", n)
	}
	// And a new tailer registers again (an instance that checks once more).
	tl2, err := binlog.New(binlog.Config{DSN: "root@unix(/nonexistent.sock)/hmdp", Registerer: reg})
	if err != nil {
		t.Fatalf("a second tailer after Close: %v", err)
	}
	tl2.Close()
}
