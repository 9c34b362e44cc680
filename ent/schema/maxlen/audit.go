package maxlen

// Lengths of hmdp_operator_audit's text columns (new).
const (
	AuditActor   = 64
	AuditDeadID  = 41 // a stream id: two 20-digit numbers and a dash
	AuditOutcome = 32
	AuditDetail  = 255
)
