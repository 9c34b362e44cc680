-- Shared by the wrk scripts of make bench-http: counts answers that carry
-- the expected text (ok) and the others, per thread, and prints one RESULT
-- line the driver (scripts/bench/run.sh) parses.
local M = {}
local threads = {}

function M.setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function M.done(summary, latency, requests)
  local ok, other, sample = 0, 0, ""
  for _, t in ipairs(threads) do
    ok = ok + (t:get("ok") or 0)
    other = other + (t:get("other") or 0)
    local s = t:get("sample")
    if s and s ~= "" then sample = s end
  end
  local secs = summary.duration / 1e6
  io.write(string.format("RESULT requests=%d rps=%.0f p50_us=%d p99_us=%d ok=%d other=%d errors=%d\n",
    summary.requests, summary.requests / secs, latency:percentile(50), latency:percentile(99), ok, other,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout))
  if sample ~= "" then io.write("SAMPLE " .. sample .. "\n") end
end

-- counter returns a response callback counting bodies that contain want.
function M.counter(want)
  ok, other, sample = 0, 0, ""
  return function(status, headers, body)
    if status == 200 and body:find(want, 1, true) then
      ok = ok + 1
    else
      other = other + 1
      if sample == "" then sample = tostring(status) .. " " .. body:sub(1, 200) end
    end
  end
end

-- counter_clean returns a response callback counting 200 answers without
-- GraphQL errors as ok.
function M.counter_clean()
  ok, other, sample = 0, 0, ""
  return function(status, headers, body)
    if status == 200 and not body:find('"errors"', 1, true) then
      ok = ok + 1
    else
      other = other + 1
      if sample == "" then sample = tostring(status) .. " " .. body:sub(1, 200) end
    end
  end
end

-- tokens returns this thread's share of a tokens file (lines "token phone",
-- made by hmdp seed-sessions): thread i of WRK_THREADS takes lines i, i+n, ...
function M.tokens(path, thread)
  local nthreads = tonumber(os.getenv("WRK_THREADS") or "2")
  local out, n = {}, 0
  for line in io.lines(path) do
    if n % nthreads == thread then
      table.insert(out, (line:match("^(%S+)")))
    end
    n = n + 1
  end
  return out
end

return M
