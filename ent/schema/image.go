package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Image records who uploaded each image (internal/image): a blog or profile
// may reference only its author's uploads, and only the uploader may delete
// one. The id is the image's URL path ("/images/<32 hex>.png").
type Image struct{ ent.Schema }

// Annotations map Image to hmdp_image.
func (Image) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Table("hmdp_image")}
}

// Fields are the columns of hmdp_image.
func (Image) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").MaxLen(64).NotEmpty().Immutable(),
		field.Int64("user_id"),
		field.Time("create_time").Default(time.Now).Immutable(),
		// Attached is set when a blog or profile first shows the image; the
		// sweep looks only at images never attached.
		field.Bool("attached").Default(false),
		// Size is the file's length in bytes: a user's live uploads are
		// their sizes summed, against the per-user quota. 0 on rows written
		// before sizes were recorded, until the collector fills it in.
		field.Int64("size").NonNegative().Default(0),
	}
}

// Indexes serve the sweep (unattached uploads, oldest first) and the
// owner checks (by uploader).
func (Image) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("attached", "create_time"),
		index.Fields("user_id"),
	}
}
