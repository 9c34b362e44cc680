package app

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/go-sql-driver/mysql"
	"github.com/redis/go-redis/v9"
)

// RouteDriverLogs sends what the Redis and MySQL drivers log themselves
// (go-redis: "pool.go:770 redis: connection pool: failed to dial ..."; the MySQL
// driver: "[mysql] closing bad idle connection ...") through log, as warnings with
// msg "redis driver" or "mysql driver" and the driver's text in "text". By default
// they write plain text to the standard logger, which would break the JSON lines of
// the server's log.
func RouteDriverLogs(log *slog.Logger) {
	routeDriverLogsOnce.Do(func() {
		redis.SetLogger(redisLogger{log})
		_ = mysql.SetLogger(mysqlLogger{log}) // errs only on a nil logger
	})
}

// The drivers' loggers are process-wide: the first server's logger keeps them.
var routeDriverLogsOnce sync.Once

// redisLogger implements go-redis's internal logging interface.
type redisLogger struct{ log *slog.Logger }

func (l redisLogger) Printf(ctx context.Context, format string, v ...any) {
	l.log.WarnContext(ctx, "redis driver", "text", strings.TrimSpace(fmt.Sprintf(format, v...)))
}

// mysqlLogger implements mysql.Logger.
type mysqlLogger struct{ log *slog.Logger }

func (l mysqlLogger) Print(v ...any) {
	l.log.Warn("mysql driver", "text", strings.TrimSpace(fmt.Sprint(v...)))
}
