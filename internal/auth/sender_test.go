package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
)

// The development sender's log line is how people find their code: docs/API.md fixes its shape.
func TestLogSenderWritesOneJSONLine(t *testing.T) {
	var buf bytes.Buffer
	s := LogSender{Log: slog.New(slog.NewJSONHandler(&buf, nil))}
	if err := s.SendCode(context.Background(), "13800000000", "123456"); err != nil {
		t.Fatal(err)
	}
	var line map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &line); err != nil {
		t.Fatalf("not one JSON line: %q", buf.String())
	}
	if line["msg"] != "sms code sent" || line["phone"] != "13800000000" || line["code"] != "123456" {
		t.Fatalf("line %v", line)
	}
}
