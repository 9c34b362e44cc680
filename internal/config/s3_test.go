package config

import (
	"strings"
	"testing"
	"time"
)

// HMDP_IMAGE_STORE and the HMDP_S3_* settings of its bucket: the local
// default, a bucket with and without a prefix, and each bad value refused
// with its variable named.
func TestConfigImageStore(t *testing.T) {
	t.Parallel()
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := (ImageStore{Endpoint: "https://s3.amazonaws.com", Timeout: 10 * time.Second}); c.ImageStore != want {
		t.Fatalf("default %+v, want %+v", c.ImageStore, want)
	}
	c, err = Load(nil, env(map[string]string{
		"HMDP_IMAGE_STORE": "s3://hmdp-pics/prod/eu/", "HMDP_S3_ENDPOINT": "http://127.0.0.1:8333/",
		"HMDP_S3_REGION": "eu-west-1", "HMDP_S3_ACCESS_KEY": "AKID", "HMDP_S3_SECRET_KEY": "secret", "HMDP_S3_TIMEOUT": "2s",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := ImageStore{Bucket: "hmdp-pics", Prefix: "prod/eu/", Endpoint: "http://127.0.0.1:8333", Region: "eu-west-1",
		AccessKey: "AKID", SecretKey: "secret", Timeout: 2 * time.Second}
	if c.ImageStore != want {
		t.Fatalf("%+v, want %+v", c.ImageStore, want)
	}
	if c, err := Load(nil, env(map[string]string{"HMDP_IMAGE_STORE": "s3://pics"})); err != nil || c.ImageStore.Bucket != "pics" || c.ImageStore.Prefix != "" {
		t.Fatalf("no prefix: %+v %v", c.ImageStore, err)
	}
	for _, c := range []struct{ vars map[string]string }{
		{map[string]string{"HMDP_IMAGE_STORE": "s3://"}},
		{map[string]string{"HMDP_IMAGE_STORE": "s3://Pics"}},
		{map[string]string{"HMDP_IMAGE_STORE": "/var/images"}},
		{map[string]string{"HMDP_IMAGE_STORE": "s3://pics/../other"}},
		{map[string]string{"HMDP_IMAGE_STORE": "s3://pics//x"}},
		{map[string]string{"HMDP_IMAGE_STORE": "s3://pics/a b"}},
		{map[string]string{"HMDP_S3_ENDPOINT": "minio:9000"}},
		{map[string]string{"HMDP_S3_ENDPOINT": "http://minio:9000/bucket"}},
		{map[string]string{"HMDP_S3_ENDPOINT": "http://key:secret@minio:9000"}},
		{map[string]string{"HMDP_S3_REGION": "EU West"}},
		{map[string]string{"HMDP_S3_ACCESS_KEY": "AKID"}},
		{map[string]string{"HMDP_S3_SECRET_KEY": "secret"}},
		{map[string]string{"HMDP_S3_TIMEOUT": "50ms"}},
		{map[string]string{"HMDP_S3_TIMEOUT": "1h"}},
	} {
		_, err := Load(nil, env(c.vars))
		var name string
		for k := range c.vars {
			name = k
		}
		if err == nil || !strings.HasPrefix(err.Error(), name+":") {
			t.Errorf("%v: %v, want an error naming %s", c.vars, err, name)
		}
	}
}
