package testenv

import (
	"os"
	"testing"
)

// S3 is the S3-compatible object store the tests may use (scripts/s3-server.sh
// starts one and sets HMDP_TEST_S3_*: make test-s3), with a key prefix of
// the test's own in its bucket.
type S3 struct {
	Endpoint, Region, Bucket string
	AccessKey, SecretKey     string
	// Prefix is new for each call: "t<hex>/".
	Prefix string
}

// RealS3Endpoint is the object store the tests may use ("" when none).
func RealS3Endpoint() string { return os.Getenv("HMDP_TEST_S3_ENDPOINT") }

// RealS3 is the object store of HMDP_TEST_S3_* under a fresh prefix. It skips
// the test when HMDP_TEST_S3_ENDPOINT is not set, under CI too: make test
// runs without the store, make test-s3 with it.
func RealS3(t testing.TB) S3 {
	t.Helper()
	endpoint := RealS3Endpoint()
	if endpoint == "" {
		t.Skip("HMDP_TEST_S3_ENDPOINT not set: make test-s3 runs this on a throw-away S3 server (scripts/s3-server.sh)")
	}
	return S3{Endpoint: endpoint, Region: os.Getenv("HMDP_TEST_S3_REGION"), Bucket: os.Getenv("HMDP_TEST_S3_BUCKET"),
		AccessKey: os.Getenv("HMDP_TEST_S3_ACCESS_KEY"), SecretKey: os.Getenv("HMDP_TEST_S3_SECRET_KEY"),
		Prefix: "t" + RandomHex(4) + "/"}
}

// Store is the HMDP_IMAGE_STORE value of s.
func (s S3) Store() string { return "s3://" + s.Bucket + "/" + s.Prefix }
