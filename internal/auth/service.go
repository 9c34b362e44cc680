// Package auth logs users in with a code sent to their phone (or a password) and
// keeps their sessions in Redis.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/crypto/bcrypt"

	"github.com/hmdp/hmdp/ent"
	entuser "github.com/hmdp/hmdp/ent/user"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/nearcache"
	"github.com/hmdp/hmdp/internal/outbox"
	"github.com/hmdp/hmdp/internal/ratelimit"
	"github.com/hmdp/hmdp/lua"
)

// Config holds the service's dependencies and tunables; zero values take the
// documented defaults.
type Config struct {
	DB     *ent.Client
	Redis  redis.UniversalClient
	Prefix string // Redis key prefix ("hmdp:")
	// Limiter counts the codes sent per phone and per address.
	Limiter *ratelimit.Limiter
	// Sender delivers the codes (default LogSender{Log}).
	Sender Sender
	Log    *slog.Logger // default slog.Default()

	CodeTTL     time.Duration // 2 minutes
	MaxWrong    int           // wrong guesses that void a code: 5
	SessionTTL  time.Duration // sliding: 30 minutes
	AdminPhones []string
	PerPhoneGap ratelimit.Limit // 1 per 60 s
	PerPhoneDay ratelimit.Limit // 10 per day
	PerIPHour   ratelimit.Limit // 30 per hour
	// Wrong passwords allowed before password login is refused for a while:
	// per phone (5 per 15 minutes) and per client address (30 per 15 minutes).
	PasswordFailuresPerPhone ratelimit.Limit
	PasswordFailuresPerIP    ratelimit.Limit
	// CodeFailuresPerIP is the wrong login codes one client address may send
	// (10 per 15 minutes). Checked before a guess reaches the code, so an
	// address over it cannot void anyone's code with wrong guesses.
	CodeFailuresPerIP ratelimit.Limit
	RandomSource      func(n int) string
	// SessionCacheTTL lets an instance reuse a session it read for this long
	// (0 = read Redis on every request). See sessions.go.
	SessionCacheTTL time.Duration
	// Now is the clock of that reuse (default time.Now).
	Now func() time.Time
	// OutboxInterval is how often ending the other sessions after a password
	// change is retried when it failed (default 1 s).
	OutboxInterval time.Duration
}

func (c *Config) defaults() {
	if c.CodeTTL == 0 {
		c.CodeTTL = 2 * time.Minute
	}
	if c.MaxWrong == 0 {
		c.MaxWrong = 5
	}
	if c.SessionTTL == 0 {
		c.SessionTTL = 30 * time.Minute
	}
	if c.PerPhoneGap.Events == 0 {
		c.PerPhoneGap = ratelimit.Limit{Events: 1, Per: time.Minute}
	}
	if c.PerPhoneDay.Events == 0 {
		c.PerPhoneDay = ratelimit.Limit{Events: 10, Per: 24 * time.Hour}
	}
	if c.PerIPHour.Events == 0 {
		c.PerIPHour = ratelimit.Limit{Events: 30, Per: time.Hour}
	}
	if c.PasswordFailuresPerPhone.Events == 0 {
		c.PasswordFailuresPerPhone = ratelimit.Limit{Events: 5, Per: 15 * time.Minute}
	}
	if c.PasswordFailuresPerIP.Events == 0 {
		c.PasswordFailuresPerIP = ratelimit.Limit{Events: 30, Per: 15 * time.Minute}
	}
	if c.CodeFailuresPerIP.Events == 0 {
		c.CodeFailuresPerIP = ratelimit.Limit{Events: 10, Per: 15 * time.Minute}
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	if c.Sender == nil {
		c.Sender = LogSender{Log: c.Log}
	}
}

// Service is the login and session service.
type Service struct {
	db      *ent.Client
	rdb     redis.UniversalClient
	prefix  string
	limiter *ratelimit.Limiter
	sender  Sender
	cfg     Config
	recent  *nearcache.Cache[Viewer] // nil when SessionCacheTTL is 0

	follower sessionFollower // session changes announced by any instance
	watches  watches         // sessions held by websockets (watch.go)
	slides   indexSlides     // slides of the users' session lists (user_sessions.go)
	// outbox ends a user's other sessions after a password change commits
	// (user_sessions.go), retried until it succeeds.
	outbox *outbox.Outbox
	// batch pipelines the session reads of concurrent requests and the
	// slides nobody waits for: in a flash sale every request is a user this
	// instance has not seen, and a socket write per read would decide the rate.
	batch *lua.Batcher
}

// New returns the service.
func New(cfg Config) *Service {
	cfg.defaults()
	s := &Service{db: cfg.DB, rdb: cfg.Redis, prefix: cfg.Prefix, limiter: cfg.Limiter, sender: cfg.Sender, cfg: cfg,
		batch: lua.NewBatcher(cfg.Redis, nil, lua.BatchOptions{})}
	if cfg.SessionCacheTTL > 0 {
		s.recent = nearcache.New[Viewer](cfg.SessionCacheTTL, 100_000)
	}
	s.outbox = outbox.New(cfg.DB, outbox.Config{Interval: cfg.OutboxInterval, Log: cfg.Log})
	s.outbox.Handle(kindEndSessions, s.endSessions)
	return s
}

var (
	verifyCodeScript = lua.Script("auth_verify_code")
	touchSession     = lua.Script("auth_session_touch")
)

func (s *Service) codeKey(phone string) string { return s.prefix + "login:code:" + phone }

// sessionKey is derived from the token's hash, so a leaked key listing or
// MONITOR output does not reveal usable tokens.
func (s *Service) sessionKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return s.prefix + sessionKeyInfix + hex.EncodeToString(sum[:])
}

// SendCode sends a fresh 6-digit code to phone, replacing any earlier one.
func (s *Service) SendCode(ctx context.Context, phone, clientIP string) error {
	if !ValidPhone(phone) {
		return apperr.BadInput("phone", "must be an 11-digit mobile number starting with 13-19")
	}
	// Every limit is checked before any is counted (one script): a request
	// refused by one limit counts against none of the others, so an address
	// over its own limit cannot spend any phone's quota. The keys share the
	// hash tag {code}, which that script needs on Redis Cluster.
	checks := []ratelimit.Check{
		{Key: "{code}:phone:gap:" + phone, Limit: s.cfg.PerPhoneGap},
		{Key: "{code}:phone:day:" + phone, Limit: s.cfg.PerPhoneDay},
	}
	what := []string{"codes for this phone", "codes for this phone today"}
	if clientIP != "" {
		checks = append(checks, ratelimit.Check{Key: "{code}:ip:" + clientIP, Limit: s.cfg.PerIPHour})
		what = append(what, "codes from this address")
	}
	res, refused, err := s.limiter.AllowAll(ctx, checks...)
	if err != nil {
		return err
	}
	if !res.Allowed {
		return apperr.RateLimit(what[refused], res.RetryAfter.Milliseconds())
	}
	code, err := randomDigits(6)
	if err != nil {
		return err
	}
	key := s.codeKey(phone)
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, key)
		p.HSet(ctx, key, "code", code, "tries", 0)
		p.PExpire(ctx, key, s.cfg.CodeTTL)
		return nil
	})
	if err != nil {
		return fmt.Errorf("store login code: %w", err)
	}
	return s.sender.SendCode(ctx, phone, code)
}

// verifyCode uses up phone's login code if code is it; field names the input
// in errors. A wrong guess counts against the guesser's address
// (CodeFailuresPerIP) as well as the code's own guesses (MaxWrong, which void
// it): the address's budget is checked first, so one address can void at
// most a few people's codes and then none, its guesses refused before they
// reach any code.
func (s *Service) verifyCode(ctx context.Context, phone, code, field string) error {
	var ipKey string
	if ip := ClientIP(ctx); ip != "" {
		ipKey = "code:ip:" + ip
		res, err := s.limiter.CheckFailures(ctx, s.cfg.CodeFailuresPerIP, ipKey)
		if err != nil {
			return err
		}
		if !res.Allowed {
			return apperr.RateLimit("wrong codes from this address", res.RetryAfter.Milliseconds())
		}
	}
	res, err := verifyCodeScript.Run(ctx, s.rdb, []string{s.codeKey(phone)}, code, s.cfg.MaxWrong).Int()
	if err != nil {
		return fmt.Errorf("verify login code: %w", err)
	}
	switch res {
	case -1:
		return apperr.BadInput(field, "no valid code for this phone: it expired, was used or was voided; send a new one")
	case 0:
		if ipKey != "" {
			if err := s.limiter.RecordFailure(ctx, s.cfg.CodeFailuresPerIP, ipKey); err != nil {
				return err
			}
		}
		return apperr.BadInput(field, "wrong code")
	}
	return nil
}

// Login logs in with either a login code (LoginWithCode) or a password
// (LoginWithPassword, its wrong guesses limited per phone and per the
// request's client address); giving both, or neither, is BAD_USER_INPUT.
func (s *Service) Login(ctx context.Context, phone string, code, password *string) (string, *ent.User, error) {
	switch {
	case code != nil && password == nil:
		return s.LoginWithCode(ctx, phone, *code)
	case password != nil && code == nil:
		return s.LoginWithPassword(ctx, phone, *password, ClientIP(ctx))
	}
	return "", nil, apperr.BadInput("code", "give either code or password")
}

// LoginWithCode checks the code and logs in, registering an unknown phone.
func (s *Service) LoginWithCode(ctx context.Context, phone, code string) (string, *ent.User, error) {
	if !ValidPhone(phone) {
		return "", nil, apperr.BadInput("phone", "must be an 11-digit mobile number starting with 13-19")
	}
	if !ValidCode(code) {
		return "", nil, apperr.BadInput("code", "must be the 6 digits sent to the phone")
	}
	if err := s.verifyCode(ctx, phone, code, "code"); err != nil {
		return "", nil, err
	}
	u, err := s.findOrRegister(ctx, phone)
	if err != nil {
		return "", nil, err
	}
	token, err := s.startSession(ctx, u)
	return token, u, err
}

// LoginWithPassword logs in a user who has set a password. Wrong passwords
// are limited per phone and per client address (RATE_LIMITED with
// retryAfterMs once spent), and an unknown phone costs a password check like
// a known one, so answers and timings tell nobody which phones have accounts.
func (s *Service) LoginWithPassword(ctx context.Context, phone, password, clientIP string) (string, *ent.User, error) {
	if !ValidPhone(phone) {
		return "", nil, apperr.BadInput("phone", "must be an 11-digit mobile number starting with 13-19")
	}
	phoneKey, ipKey := passwordFailureKeys(phone, clientIP)
	if err := s.checkPasswordFailures(ctx, phoneKey, ipKey); err != nil {
		return "", nil, err
	}
	u, err := s.db.User.Query().Where(entuser.Phone(phone)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return "", nil, err
	}
	hash := dummyPasswordHash()
	if u != nil && u.Password != "" {
		hash = []byte(u.Password)
	}
	// Always one bcrypt comparison, against the dummy hash when there is no
	// password to compare with.
	matches := bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil
	if u == nil || u.Password == "" || !matches {
		if err := s.recordPasswordFailure(ctx, phoneKey, ipKey); err != nil {
			return "", nil, err
		}
		// The same error for an unknown phone, no password and a wrong one.
		return "", nil, apperr.BadInput("password", "wrong phone or password")
	}
	token, err := s.startSession(ctx, u)
	return token, u, err
}

// dummyPasswordHash is a bcrypt hash of a random password, at the cost
// stored passwords have, for logins that have no hash to compare with.
var dummyPasswordHash = sync.OnceValue(func() []byte {
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	h, err := HashPassword(b)
	if err != nil {
		panic(err) // only for a cost out of range
	}
	return h
})

func (s *Service) findOrRegister(ctx context.Context, phone string) (*ent.User, error) {
	u, err := s.db.User.Query().Where(entuser.Phone(phone)).Only(ctx)
	if err == nil || !ent.IsNotFound(err) {
		return u, err
	}
	nick, err := randomName(10)
	if err != nil {
		return nil, err
	}
	u, err = s.db.User.Create().SetPhone(phone).SetNickName("user_" + nick).Save(ctx)
	if ent.IsConstraintError(err) {
		// Registered concurrently by another login: the unique phone decides.
		return s.db.User.Query().Where(entuser.Phone(phone)).Only(ctx)
	}
	return u, err
}

func (s *Service) startSession(ctx context.Context, u *ent.User) (string, error) {
	b := make([]byte, 16) // 128 bits
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	token := hex.EncodeToString(b)
	data, _ := json.Marshal(Viewer{UserID: u.ID, Phone: u.Phone, Nick: u.NickName, Icon: u.Icon})
	key := s.sessionKey(token)
	if err := s.rdb.Set(ctx, key, data, s.cfg.SessionTTL).Err(); err != nil {
		return "", fmt.Errorf("store session: %w", err)
	}
	return token, s.indexSession(ctx, u.ID, key)
}

// Authenticate returns the viewer of token. An unknown or expired token is
// anonymous (nil, nil).
//
// Reading the session also slides its expiry, in one Redis round trip. With
// SessionCacheTTL, a session read here less than that long ago is reused
// without asking Redis: its expiry then slides at the next read, at most
// SessionCacheTTL later, which is nothing next to its 30 minutes.
func (s *Service) Authenticate(ctx context.Context, token string) (*Viewer, error) {
	if token == "" {
		return nil, nil
	}
	key := s.sessionKey(token)
	var epoch uint64
	if s.recent != nil {
		if v, _, ok := s.recent.Get(key, s.cfg.Now()); ok {
			return s.viewer(v, token), nil
		}
		epoch = s.recent.Epoch()
	}
	data, err := s.batch.RunScript(ctx, touchSession, []string{key}, s.cfg.SessionTTL.Milliseconds()).Text()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load session: %w", err)
	}
	var v Viewer
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		return nil, fmt.Errorf("decode session: %w", err)
	}
	if s.recent != nil {
		s.recent.Put(key, v, true, epoch, s.cfg.Now())
	}
	s.slideIndex(ctx, v.UserID)
	return s.viewer(v, token), nil
}

// viewer completes a stored session with what is never stored.
func (s *Service) viewer(v Viewer, token string) *Viewer {
	v.Token = token
	v.Admin = slices.Contains(s.cfg.AdminPhones, v.Phone)
	return &v
}

// Logout ends v's session, on every instance; it reports whether there was
// one (false for an anonymous viewer, nil: an unknown or expired token is
// already anonymous).
func (s *Service) Logout(ctx context.Context, v *Viewer) (bool, error) {
	if v == nil {
		return false, nil
	}
	key := s.sessionKey(v.Token)
	n, err := s.rdb.Del(ctx, key).Result()
	if err != nil {
		return false, err
	}
	return n > 0, s.forget(ctx, key)
}

// RefreshSession rewrites the summary of the viewer's session after a profile change,
// keeping its remaining lifetime. A session that is gone meanwhile (expired,
// logged out, lost by Redis) is left gone: there is nothing to rewrite.
func (s *Service) RefreshSession(ctx context.Context, v *Viewer, u *ent.User) error {
	key := s.sessionKey(v.Token)
	data, _ := json.Marshal(Viewer{UserID: u.ID, Phone: u.Phone, Nick: u.NickName, Icon: u.Icon})
	if err := s.rdb.SetArgs(ctx, key, data, redis.SetArgs{KeepTTL: true, Mode: "XX"}).Err(); err != nil && !errors.Is(err, redis.Nil) {
		return err
	}
	return s.forget(ctx, key)
}

func randomDigits(n int) (string, error) {
	return randomFrom("0123456789", n)
}

func randomName(n int) (string, error) {
	return randomFrom("abcdefghijklmnopqrstuvwxyz0123456789", n)
}

func randomFrom(alphabet string, n int) (string, error) {
	b := make([]byte, n)
	max := big.NewInt(int64(len(alphabet)))
	for i := range b {
		k, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", err
		}
		b[i] = alphabet[k.Int64()]
	}
	return string(b), nil
}
