package payment

import (
	"errors"
	"log/slog"
	"net/http"
)

// NotifyPath is where the provider sends its notifies (the notify URL is the
// server's public base URL plus this path).
const NotifyPath = "/pay/notify"

// NotifyHandler is the notify endpoint: it verifies the notify with p, hands
// it to s, and answers p's way. A notify that fails verification changes
// nothing.
func NotifyHandler(p Provider, s Settler, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		n, err := p.ParseNotify(r)
		if err != nil {
			log.WarnContext(r.Context(), "payment: notify refused", "remote", r.RemoteAddr, "err", err)
			p.Answer(w, err)
			return
		}
		err = s.Settle(r.Context(), n)
		var rej *Rejected
		switch {
		case errors.As(err, &rej):
			log.ErrorContext(r.Context(), "payment: verified notify rejected", "kind", n.Kind, "trade", n.TradeNo,
				"amount", n.Amount, "reason", rej.Reason)
		case err != nil:
			log.WarnContext(r.Context(), "payment: notify not applied; the provider retries", "trade", n.TradeNo, "err", err)
		}
		p.Answer(w, err)
	})
}
