package graph

import "github.com/hmdp/hmdp/internal/image"

// shownImages is what a shop or blog shows for its image references: the
// demo data's are served as the demo pictures (image.Shown).
func shownImages(refs []string) []string { return image.Shown(refs) }

// shownIcon is what a user shows for its icon: the demo data's icons are
// served as the demo avatars (image.ShownIcon).
func shownIcon(icon string) string { return image.ShownIcon(icon) }
