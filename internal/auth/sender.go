package auth

import (
	"context"
	"log/slog"
)

// Sender delivers a login code to a phone.
type Sender interface {
	SendCode(ctx context.Context, phone, code string) error
}

// LogSender is the default sender: it writes the code to the log (there is no
// SMS gateway in development), as one JSON line with msg "sms code sent".
type LogSender struct{ Log *slog.Logger }

// SendCode logs the code instead of sending it.
func (s LogSender) SendCode(ctx context.Context, phone, code string) error {
	s.Log.InfoContext(ctx, "sms code sent", "phone", phone, "code", code)
	return nil
}
