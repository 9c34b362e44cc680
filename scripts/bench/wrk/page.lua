-- A page of the web app: the requests it sends, in order (the bodies made by
-- scripts/bench/appops from the app's own operations), again and again. With
-- a tokens file each page is viewed by the next session of this thread's
-- share (thread i of n takes lines i, i+n, ...), so the server sees distinct
-- logged-in users; "-" views them anonymously. An answer counts as ok when it
-- is a 200 without "errors".
-- Usage: wrk -s page.lua URL -- TOKENS_FILE|- BODY_FILE...
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
local common = require("common")
setup, done = common.setup, common.done

local tokens, bodies, step, user = {}, {}, 0, 0

function init(args)
  if args[1] ~= "-" then
    tokens = common.tokens(args[1], id)
  end
  for i = 2, #args do
    local f = assert(io.open(args[i]))
    table.insert(bodies, (f:read("*a"):gsub("%s+$", "")))
    f:close()
  end
  step = #bodies -- the first request starts a page, with the first session
  response = common.counter_clean()
end

function request()
  step = step + 1
  if step > #bodies then
    step = 1
    user = user + 1
    if user > #tokens then user = 1 end
  end
  local headers = { ["Content-Type"] = "application/json" }
  if #tokens > 0 then
    headers["Authorization"] = "Bearer " .. tokens[user]
  end
  return wrk.format("POST", "/graphql", headers, bodies[step])
end
