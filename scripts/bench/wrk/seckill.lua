-- Flash-sale attempts, each by a distinct logged-in user: thread i of n takes
-- the sessions i, i+n, i+2n, ... of the tokens file (lines "token phone",
-- made by hmdp seed-sessions) and uses each once; past the end it wraps, and
-- the answers then are "already ordered" (counted as other).
-- Usage: wrk -s seckill.lua URL -- TOKENS_FILE VOUCHER_ID WANT
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
local common = require("common")
setup, done = common.setup, common.done

local tokens, pos, body, want = {}, 0, nil, nil

function init(args)
  tokens = common.tokens(args[1], id)
  body = '{"query":"mutation($v:ID!){seckillVoucher(voucherId:$v){orderId status}}","variables":{"v":"' .. args[2] .. '"}}'
  response = common.counter(args[3] or '"orderId"')
end

function request()
  pos = pos + 1
  if pos > #tokens then pos = 1 end
  return wrk.format("POST", "/graphql", {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. tokens[pos],
  }, body)
end
