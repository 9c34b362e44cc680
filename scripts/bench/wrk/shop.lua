-- shop(id), anonymous, the same query every time (served from the cache).
-- Usage: wrk -s shop.lua URL -- SHOP_ID
package.path = debug.getinfo(1, "S").source:match("^@(.*/)") .. "?.lua;" .. package.path
local common = require("common")
setup, done = common.setup, common.done

function init(args)
  local body = '{"query":"query($id:ID!){shop(id:$id){id name area address avgPrice score}}","variables":{"id":"' .. (args[1] or "1") .. '"}}'
  wrk.method, wrk.body = "POST", body
  wrk.headers["Content-Type"] = "application/json"
  response = common.counter('"shop":{')
end
