// Package maxlen holds the lengths of the text columns of hmdp.sql, in
// characters (MySQL's varchar(n) with utf8mb4 counts characters, not bytes).
// The ent schema sizes and validates its fields with them, and the services
// check input against the same numbers to name the field that is too long.
package maxlen

// Column lengths, by table and column.
const (
	BlogTitle      = 255
	BlogImages     = 2048
	BlogContent    = 2048
	CommentContent = 255
	ShopName       = 128
	ShopImages     = 1024
	ShopArea       = 128
	ShopAddress    = 255
	ShopOpenHours  = 32
	ShopTypeName   = 32
	ShopTypeIcon   = 255
	UserPhone      = 11
	UserPassword   = 128
	UserNickName   = 32
	UserIcon       = 255
	UserCity       = 64
	UserIntroduce  = 128
	VoucherTitle   = 255
	VoucherSub     = 255
	VoucherRules   = 1024
	OutboxKind     = 64
	OutboxArg      = 255
	// CommentText is hmdp_comment_text.content (new): a comment's whole text
	// when it is longer than tb_blog_comments.content holds.
	CommentText = 1000
)
