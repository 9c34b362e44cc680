package user

import (
	"context"

	"github.com/hmdp/hmdp/ent"
	entuser "github.com/hmdp/hmdp/ent/user"
)

// AttachAuthors reads the authors of bs (one statement) into their Author
// edge, keeping only what the API shows of a user (User: id, nickName,
// icon), so lists kept in Redis carry no phone or password hash. A blog whose
// author is gone keeps a nil edge (looked up, NOT_FOUND, as before).
func AttachAuthors(ctx context.Context, db *ent.Client, bs []*ent.Blog) error {
	ids := make([]int64, 0, len(bs))
	for _, b := range bs {
		ids = append(ids, b.UserID)
	}
	if len(ids) == 0 {
		return nil
	}
	us, err := db.User.Query().Where(entuser.IDIn(ids...)).
		Select(entuser.FieldID, entuser.FieldNickName, entuser.FieldIcon).All(ctx)
	if err != nil {
		return err
	}
	byID := make(map[int64]*ent.User, len(us))
	for _, u := range us {
		byID[u.ID] = &ent.User{ID: u.ID, NickName: u.NickName, Icon: u.Icon}
	}
	for _, b := range bs {
		b.Edges.Author = byID[b.UserID]
	}
	return nil
}
