package payment

import (
	"fmt"
	"net/url"
	"strings"
)

// Settings choose and configure the payment provider (the HMDP_PAY_*
// settings of internal/config).
type Settings struct {
	// Provider is "sandbox" (the sandbox provider of cmd/paysandbox, or any
	// provider speaking its protocol) or "instant" (in process: every payment
	// is charged at once; development and tests only).
	Provider string
	// URL is the provider's base URL (HMDP_PAY_PROVIDER_URL).
	URL string
	// PublicKey is the provider's Ed25519 public key, base64
	// (HMDP_PAY_PUBLIC_KEY): notifies not signed with its private key are refused.
	PublicKey string
	// NotifyURL is where the provider sends its notifies: this server's
	// public base URL plus NotifyPath (HMDP_PAY_NOTIFY_URL).
	NotifyURL string
}

// DefaultSettings are the development defaults: the sandbox of `make
// paysandbox` on :8090, trusted with its development key, notifying the
// server on :8080.
func DefaultSettings() Settings {
	return Settings{Provider: "sandbox", URL: "http://localhost:8090", PublicKey: DevPublicKey(),
		NotifyURL: "http://localhost:8080" + NotifyPath}
}

// Validate checks s. In production the instant provider and the sandbox's
// development key (known to everyone) are refused.
func (s Settings) Validate(production bool) error {
	if err := s.ValidateProvider(production); err != nil {
		return fmt.Errorf("HMDP_PAY_PROVIDER: %w", err)
	}
	if s.Provider == "instant" {
		return nil
	}
	if err := ValidateURL(s.URL); err != nil {
		return fmt.Errorf("HMDP_PAY_PROVIDER_URL: %w", err)
	}
	if err := ValidateURL(s.NotifyURL); err != nil {
		return fmt.Errorf("HMDP_PAY_NOTIFY_URL: %w", err)
	}
	if err := ValidateKey(s.PublicKey, production); err != nil {
		return fmt.Errorf("HMDP_PAY_PUBLIC_KEY: %w", err)
	}
	return nil
}

// ValidateKey checks the provider's public key; production refuses the
// sandbox's development key.
func ValidateKey(v string, production bool) error {
	if _, err := ParsePublicKey(v); err != nil {
		return err
	}
	if production && strings.TrimSpace(v) == DevPublicKey() {
		return fmt.Errorf("the sandbox's development key is public; production needs the provider's own")
	}
	return nil
}

// New returns the provider s configures (validated with Validate first).
func New(s Settings, production bool) (Provider, error) {
	if err := s.Validate(production); err != nil {
		return nil, err
	}
	if s.Provider == "instant" {
		return &Instant{}, nil
	}
	pub, err := ParsePublicKey(s.PublicKey)
	if err != nil {
		return nil, err
	}
	return &Sandbox{BaseURL: s.URL, NotifyURL: s.NotifyURL, PublicKey: pub}, nil
}

// ValidateProvider checks s.Provider alone.
func (s Settings) ValidateProvider(production bool) error {
	switch s.Provider {
	case "instant":
		if production {
			return fmt.Errorf("instant takes no money; it is refused in production")
		}
		return nil
	case "sandbox":
		return nil
	}
	return fmt.Errorf("must be sandbox or instant, got %q", s.Provider)
}

// ValidateURL checks a provider or notify URL: http(s) with a host.
func ValidateURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("must be an http(s) URL, got %q", v)
	}
	return nil
}
