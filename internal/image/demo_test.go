package image

import (
	"bytes"
	"image/png"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRenderDemoPictures writes the demo pictures' variants from the PNGs
// render.sh made (HMDP_RENDER_DEMO names their directory) through the same
// code as uploads, all but the widest JPEG (demoLeftOut); without
// HMDP_RENDER_DEMO it is skipped.
func TestRenderDemoPictures(t *testing.T) {
	dir := os.Getenv("HMDP_RENDER_DEMO")
	if dir == "" {
		t.Skip("HMDP_RENDER_DEMO is not set: run internal/image/demo/render.sh")
	}
	pngs, err := filepath.Glob(filepath.Join(dir, "*.png"))
	if err != nil || len(pngs) == 0 {
		t.Fatalf("no PNGs in %s (%v)", dir, err)
	}
	for _, p := range pngs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(p, err)
		}
		vs, err := variantsOf(m, strings.TrimSuffix(filepath.Base(p), ".png"), 1)
		if err != nil {
			t.Fatal(p, err)
		}
		for _, v := range vs {
			if strings.HasSuffix(v.name, demoLeftOut) {
				continue
			}
			if err := os.WriteFile(filepath.Join("demo", v.name), v.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

var (
	sqlShop = regexp.MustCompile("INSERT INTO `tb_shop` VALUES \\((\\d+), '[^']*', \\d+, '([^']*)'")
	sqlBlog = regexp.MustCompile("INSERT INTO `tb_blog` VALUES \\((\\d+), \\d+, \\d+, '[^']*', '([^']*)'")
	sqlUser = regexp.MustCompile("INSERT INTO `tb_user` VALUES \\((\\d+), '[^']*', '[^']*', '[^']*', '([^']*)'")
	// A demo user of internal/database/seed.go: {id, "phone", "nick", "icon"}.
	seedUser = regexp.MustCompile(`\{(\d+), "\d+", "[^"]*", "([^"]*)"\}`)
)

// Every shop and post of scripts/hmdp.sql shows demo pictures only, each
// picture has a WebP of every width and a JPEG of every width but the
// widest, they take less than 1.5 MB, and /images/ serves them as it serves
// uploads (a client without WebP asking for 960 gets the 480 JPEG).
func TestDemoPictures(t *testing.T) {
	sql, err := os.ReadFile("../../scripts/hmdp.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		table string
		re    *regexp.Regexp
		want  int
	}{{"tb_shop", sqlShop, 14}, {"tb_blog", sqlBlog, 4}} {
		rows := c.re.FindAllStringSubmatch(string(sql), -1)
		if len(rows) != c.want {
			t.Fatalf("%s: %d rows with images, want %d", c.table, len(rows), c.want)
		}
		for _, row := range rows {
			shown := Shown(strings.Split(row[2], ","))
			if len(shown) == 0 {
				t.Fatalf("%s %s shows nothing", c.table, row[1])
			}
			for _, p := range shown {
				if !strings.HasPrefix(p, URLPrefix+"demo-") {
					t.Fatalf("%s %s shows %s, not a demo picture", c.table, row[1], p)
				}
			}
		}
	}
	if got := Shown([]string{"/images/0123456789abcdef0123456789abcdef.png", "", "https://example.com/a.jpg"}); len(got) != 2 || got[0] != "/images/0123456789abcdef0123456789abcdef.png" || got[1] != "https://example.com/a.jpg" {
		t.Fatalf("other references: %v", got)
	}

	pictures := map[string]bool{}
	for _, p := range demoRefs {
		pictures[strings.TrimSuffix(strings.TrimPrefix(p, URLPrefix+"demo-"), ".jpg")] = true
	}
	for p := range pictures {
		for _, w := range Widths {
			for _, ext := range []string{"jpg", "webp"} {
				if strings.HasSuffix(variantName(p, w, ext), demoLeftOut) {
					continue
				}
				b, err := demoFS.ReadFile("demo/" + variantName(p, w, ext))
				if err != nil {
					t.Fatal(err)
				}
				cfg, err := decodeConfig("."+ext, b)
				if err != nil || cfg.Width != w || cfg.Height != w*3/4 {
					t.Fatalf("%s %d %s: %dx%d (%v)", p, w, ext, cfg.Width, cfg.Height, err)
				}
			}
		}
	}
	avatars := demoAvatarsOf(t)
	for p := range avatars {
		for _, w := range Widths[:2] {
			for _, ext := range []string{"jpg", "webp"} {
				b, err := demoFS.ReadFile("demo/" + variantName(p, w, ext))
				if err != nil {
					t.Fatal(err)
				}
				cfg, err := decodeConfig("."+ext, b)
				if err != nil || cfg.Width != w || cfg.Height != w {
					t.Fatalf("%s %d %s: %dx%d (%v)", p, w, ext, cfg.Width, cfg.Height, err)
				}
			}
		}
	}

	var total, avatarBytes int64
	_ = fs.WalkDir(demoFS, "demo", func(_ string, d fs.DirEntry, _ error) error {
		if info, err := d.Info(); err == nil && !d.IsDir() {
			total += info.Size()
			if strings.HasPrefix(d.Name(), "avatar-") {
				avatarBytes += info.Size()
			}
		}
		return nil
	})
	if total > 1_500_000 {
		t.Fatalf("the demo pictures take %d bytes", total)
	}
	if avatarBytes > 150_000 {
		t.Fatalf("the demo avatars take %d bytes", avatarBytes)
	}
	t.Logf("%d pictures, %d avatars, %d bytes (avatars %d)", len(pictures), len(avatars), total, avatarBytes)

	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q, accept, ct string
		width         int
	}{{"?w=480", browserAccept, "image/webp", 480}, {"?w=960", browserAccept, "image/webp", 960}, {"?w=200", "", "image/jpeg", 240}, {"?w=960", "", "image/jpeg", 480}, {"", browserAccept, "image/jpeg", 480}} {
		a := serve(t, s, "/images/demo-shop-5.jpg"+c.q, c.accept)
		ct, w, _ := dims(t, a)
		if a.status != http.StatusOK || ct != c.ct || w != c.width || !strings.HasPrefix(a.header.Get("Cache-Control"), "public, max-age=3600") {
			t.Fatalf("demo picture %s: %d %s %d wide %v", c.q, a.status, ct, w, a.header)
		}
	}
	// An avatar has no 960 variant: the widest it has (480) serves for it.
	for _, c := range []struct {
		q, accept, ct string
		width         int
	}{{"?w=96", browserAccept, "image/webp", 240}, {"?w=960", browserAccept, "image/webp", 480}, {"?w=960", "", "image/jpeg", 480}, {"", browserAccept, "image/jpeg", 480}} {
		a := serve(t, s, "/images/demo-avatar-fish.jpg"+c.q, c.accept)
		ct, w, _ := dims(t, a)
		if a.status != http.StatusOK || ct != c.ct || w != c.width {
			t.Fatalf("demo avatar %s: %d %s %d wide %v", c.q, a.status, ct, w, a.header)
		}
	}
	if a := serve(t, s, "/images/demo-nothing.jpg?w=480", browserAccept); a.status != http.StatusNotFound {
		t.Fatalf("unknown demo picture: %d", a.status)
	}
}

// demoAvatarsOf checks that every user icon of scripts/hmdp.sql and of the
// embedded seed shows a demo avatar (none left empty, uploads and "" as
// they are) and returns the avatars' names.
func demoAvatarsOf(t *testing.T) map[string]bool {
	t.Helper()
	avatars := map[string]bool{}
	for _, c := range []struct {
		file      string
		re        *regexp.Regexp
		users, of int
	}{{"../../scripts/hmdp.sql", sqlUser, 5, 3}, {"../database/seed.go", seedUser, 3, 3}} {
		b, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		rows := c.re.FindAllStringSubmatch(string(b), -1)
		icons := 0
		for _, row := range rows {
			if row[2] == "" {
				continue
			}
			icons++
			p := ShownIcon(row[2])
			name, ok := strings.CutPrefix(p, URLPrefix+"demo-avatar-")
			if !ok || !demoName.MatchString(strings.TrimPrefix(p, URLPrefix)) {
				t.Fatalf("%s: user %s's icon %s shows %s, not a demo avatar", c.file, row[1], row[2], p)
			}
			avatars["avatar-"+strings.TrimSuffix(name, ".jpg")] = true
		}
		if len(rows) != c.users || icons != c.of {
			t.Fatalf("%s: %d users, %d with icons, want %d and %d", c.file, len(rows), icons, c.users, c.of)
		}
	}
	for _, icon := range []string{"", "/images/0123456789abcdef0123456789abcdef.png", "/imgs/icons/other.jpg"} {
		if got := ShownIcon(icon); got != icon {
			t.Fatalf("ShownIcon(%q) = %q", icon, got)
		}
	}
	return avatars
}
