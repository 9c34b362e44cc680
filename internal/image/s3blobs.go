package image

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path/filepath"
	"sync"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// DefaultS3Timeout bounds each call to the object store when S3Config
// gives none: a Put, Stat or Remove, the wait for a read's first byte, and
// each read of a blob's body after it.
const DefaultS3Timeout = 10 * time.Second

// S3Config reaches a bucket of an S3-compatible object store.
type S3Config struct {
	// Endpoint is the store's base URL: http(s)://host[:port].
	Endpoint string
	// Region is the bucket's region; empty asks the store (once).
	Region string
	Bucket string
	// Prefix is put before every blob name: empty or ending in "/".
	Prefix string
	// AccessKey and SecretKey sign the requests; both empty takes the
	// AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN)
	// variables, else the machine's IAM role.
	AccessKey, SecretKey string
	// Timeout bounds each call (DefaultS3Timeout when 0).
	Timeout time.Duration
	// Transport carries the requests (tests count them); nil is the
	// library's.
	Transport http.RoundTripper
}

// S3 is Blobs in a bucket of an S3-compatible object store (AWS S3, MinIO,
// SeaweedFS and the like), through github.com/minio/minio-go: every
// instance then serves every upload and its variants, as it does every
// other request (ARCHITECTURE.md "Any instance can do anything").
//
// Reads stream: Open starts one GET and returns its body, so a blob costs
// no memory however large it is and however many are served at once, and a
// Seek elsewhere (a Range request) starts a ranged GET on the next Read.
type S3 struct {
	core      minio.Core
	transport http.RoundTripper
	bucket    string
	prefix    string
	timeout   time.Duration
	// Describe names the store for logs: endpoint, bucket and prefix, no keys.
	Describe string
}

// NewS3 connects to the bucket of cfg and checks, within the timeout, that
// it is there: a wrong endpoint, bucket or key stops start-up rather than
// every upload.
func NewS3(ctx context.Context, cfg S3Config) (*S3, error) {
	s, err := newS3(cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	ok, err := s.core.BucketExists(ctx, s.bucket)
	switch {
	case err != nil:
		err = fmt.Errorf("HMDP_IMAGE_STORE: cannot reach bucket %q at %s: %w", s.bucket, cfg.Endpoint, err)
	case !ok:
		err = fmt.Errorf("HMDP_IMAGE_STORE: no bucket %q at %s (create it first)", s.bucket, cfg.Endpoint)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// newS3 is NewS3 without the check (the tests' unreachable stores).
func newS3(cfg S3Config) (*S3, error) {
	u, err := url.Parse(cfg.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("HMDP_S3_ENDPOINT: must be http(s)://host[:port], got %q", cfg.Endpoint)
	}
	transport := cfg.Transport
	if transport == nil {
		// The library's own, kept here so that Close can let its idle
		// connections go.
		if transport, err = minio.DefaultTransport(u.Scheme == "https"); err != nil {
			return nil, err
		}
	}
	creds := credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, "")
	if cfg.AccessKey == "" {
		creds = credentials.NewChainCredentials([]credentials.Provider{&credentials.EnvAWS{}, &credentials.IAM{}})
	}
	c, err := minio.New(u.Host, &minio.Options{
		Creds: creds, Secure: u.Scheme == "https", Region: cfg.Region, Transport: transport,
		// One retry: a request that keeps failing fails fast, and the
		// timeout, not the library's ten retries, bounds the wait.
		MaxRetries: 2,
	})
	if err != nil {
		return nil, fmt.Errorf("HMDP_S3_ENDPOINT: %w", err)
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultS3Timeout
	}
	return &S3{core: minio.Core{Client: c}, transport: transport, bucket: cfg.Bucket, prefix: cfg.Prefix, timeout: timeout,
		Describe: "s3 " + u.Scheme + "://" + u.Host + "/" + cfg.Bucket + "/" + cfg.Prefix}, nil
}

// Close lets the idle connections to the store go.
func (s *S3) Close() {
	if t, ok := s.transport.(interface{ CloseIdleConnections() }); ok {
		t.CloseIdleConnections()
	}
}

func (s *S3) key(name string) (string, error) {
	if !blobName.MatchString(name) {
		return "", fmt.Errorf("image: bad blob name %q", name)
	}
	return s.prefix + name, nil
}

// notFound reports whether err is the store's answer that the object is
// not there (a missing bucket is an error of the configuration, not that).
func notFound(err error) bool {
	r := minio.ToErrorResponse(err)
	return r.Code == "NoSuchKey" || r.StatusCode == http.StatusNotFound && r.Code != "NoSuchBucket"
}

// wrap names the call and blob in err, and makes a missing object
// fs.ErrNotExist.
func (s *S3) wrap(op, name string, err error) error {
	if err == nil {
		return nil
	}
	if notFound(err) {
		return fmt.Errorf("image store: %s %s: %w", op, name, fs.ErrNotExist)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("image store: %s %s: no answer within %v: %w", op, name, s.timeout, err)
	}
	return fmt.Errorf("image store: %s %s: %w", op, name, err)
}

// Put uploads data in one PUT: the store makes the object visible whole or
// not at all, and of two Puts of one name the last one wins whole.
func (s *S3) Put(ctx context.Context, name string, data []byte) error {
	key, err := s.key(name)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	_, err = s.core.Client.PutObject(ctx, s.bucket, key, bytes.NewReader(data), int64(len(data)),
		minio.PutObjectOptions{ContentType: contentTypes[filepath.Ext(name)]})
	return s.wrap("put", name, err)
}

// Stat is a HEAD.
func (s *S3) Stat(ctx context.Context, name string) (BlobInfo, error) {
	key, err := s.key(name)
	if err != nil {
		return BlobInfo{}, fmt.Errorf("%w: %w", fs.ErrNotExist, err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	info, err := s.core.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return BlobInfo{}, s.wrap("stat", name, err)
	}
	return BlobInfo{Size: info.Size, ModTime: info.LastModified}, nil
}

// Remove is a DELETE, which the store answers alike whether the object was
// there or not.
func (s *S3) Remove(ctx context.Context, name string) error {
	key, err := s.key(name)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	err = s.core.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{})
	if notFound(err) {
		return nil
	}
	return s.wrap("remove", name, err)
}

// Open starts a GET of the whole blob and returns its body as it arrives.
// The GET's answer says whether the blob is there and its size and time, so
// serving a blob costs one request.
func (s *S3) Open(ctx context.Context, name string) (io.ReadSeekCloser, BlobInfo, error) {
	key, err := s.key(name)
	if err != nil {
		return nil, BlobInfo{}, fmt.Errorf("%w: %w", fs.ErrNotExist, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	o := &s3Object{s: s, name: name, key: key, ctx: ctx, cancel: cancel}
	o.watchdog = time.AfterFunc(time.Hour, o.expire)
	o.watchdog.Stop()
	info, err := o.get(0)
	if err != nil {
		o.Close()
		return nil, BlobInfo{}, err
	}
	o.size = info.Size
	return o, BlobInfo{Size: info.Size, ModTime: info.LastModified}, nil
}

// s3Object is an open blob: the body of its current GET, read from pos,
// and where the next Read reads (off), which Seek moves without a request.
type s3Object struct {
	s         *S3
	name, key string
	size      int64
	ctx       context.Context
	cancel    context.CancelFunc
	body      io.ReadCloser
	pos, off  int64

	// watchdog cancels ctx when a request or a read waits on the store
	// longer than the timeout. Between reads (the client is slow to take
	// what was read) nothing waits on the store and it does not run.
	watchdog *time.Timer
	mu       sync.Mutex
	expired  bool
}

func (o *s3Object) expire() {
	o.mu.Lock()
	o.expired = true
	o.mu.Unlock()
	o.cancel()
}

// arm starts the watchdog; disarm stops it and reports whether it fired
// meanwhile.
func (o *s3Object) arm() { o.watchdog.Reset(o.s.timeout) }

func (o *s3Object) disarm() (fired bool) {
	o.watchdog.Stop()
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.expired
}

// get starts a GET from offset off (a ranged one past 0).
func (o *s3Object) get(off int64) (minio.ObjectInfo, error) {
	opts := minio.GetObjectOptions{}
	if off > 0 {
		if err := opts.SetRange(off, 0); err != nil {
			return minio.ObjectInfo{}, err
		}
	}
	o.arm()
	body, info, _, err := o.s.core.GetObject(o.ctx, o.s.bucket, o.key, opts)
	if o.disarm() && err != nil {
		err = context.DeadlineExceeded
	}
	if err != nil {
		return info, o.s.wrap("get", o.name, err)
	}
	o.body, o.pos = body, off
	return info, nil
}

func (o *s3Object) Read(p []byte) (int, error) {
	if o.off >= o.size {
		return 0, io.EOF
	}
	if o.body != nil && o.pos != o.off {
		o.skip()
	}
	if o.body == nil {
		if _, err := o.get(o.off); err != nil {
			return 0, err
		}
	}
	o.arm()
	n, err := o.body.Read(p)
	if o.disarm() && err != nil {
		err = o.s.wrap("read", o.name, context.DeadlineExceeded)
	}
	o.pos += int64(n)
	o.off = o.pos
	if errors.Is(err, io.EOF) && o.off < o.size {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

func (o *s3Object) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += o.off
	case io.SeekEnd:
		offset += o.size
	default:
		return 0, errors.New("image store: bad whence")
	}
	if offset < 0 {
		return 0, errors.New("image store: negative position")
	}
	o.off = offset
	return offset, nil
}

// drainMax is how much of a body not read to its end Close reads away, so
// that its connection goes back to the pool (a 304 answer reads none of a
// variant of tens of KB); a larger rest costs less as a new connection.
const drainMax = 64 << 10

// skip moves the body on to off when off is a little ahead (cheaper than a
// new GET), and otherwise closes it, for Read to start a ranged GET.
func (o *s3Object) skip() {
	if ahead := o.off - o.pos; ahead > 0 && ahead <= drainMax {
		o.arm()
		n, err := io.CopyN(io.Discard, o.body, ahead)
		o.disarm()
		o.pos += n
		if err == nil {
			return
		}
	}
	o.closeBody()
}

func (o *s3Object) closeBody() {
	if o.body == nil {
		return
	}
	if o.size-o.pos <= drainMax {
		o.arm()
		_, _ = io.Copy(io.Discard, o.body)
		o.disarm()
	}
	_ = o.body.Close()
	o.body = nil
}

func (o *s3Object) Close() error {
	o.closeBody()
	o.watchdog.Stop()
	o.cancel()
	return nil
}
