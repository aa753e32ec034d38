-- The evening mix of `make load` (bench/load.py), per table-minute: 80 live polls (4 phones every
-- 3 s, each sending the ETag of its last answer as If-None-Match, as static/js/live.js does), 4
-- table-page loads and 1 hand recorded through the JSON API; every request picks one of the thread's phones at random.
--
-- wrk -t8 -c8 (one connection per thread, closed loop: the next request leaves when the answer is
-- in). Environment:
--   TABLES  a file of "<public_id> <edit token> <revision>" lines (the seeded tables; each phone
--           starts with the ETag of that revision, as after loading the table page)
--   RATE    total requests per second to pace at (0 or unset: as fast as the server answers)
--   HELLO   1: the server is the bare hello (bench/hello_app.py): every answer must be 200
--   RUN     a word that makes this run's request ids new
--   THREADS wrk's -t (to split RATE between the threads)
-- Each table's phones send an address of their own (X-Forwarded-For; the server trusts one proxy),
-- so the rate limits count per table as they would at a real evening, not all on one address.
-- The done() line "MIX …" gives the counts per kind, the unexpected answers and the p99 of each kind.

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } ctc_timespec;
  int clock_gettime(int clk_id, ctc_timespec *tp);
]]
local ts = ffi.new("ctc_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end

local CYCLE = 85 -- per table-minute: 80 polls, 4 pages (slots 17, 34, 51, 68), 1 hand (slot 0)
local PHONES = 4
local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("id", thread_count)
  table.insert(threads, thread)
end

local tables = {}
local etags = {}
local hello = os.getenv("HELLO") == "1"
local run_word = os.getenv("RUN") or "0"
local interval, next_at = 0, nil
local counter, kind, sent_at = 0, nil, 0
local current, current_phone = nil, nil
counts = { poll = 0, poll304 = 0, page = 0, record = 0, bad = 0 }
lat_poll, lat_page, lat_record = {}, {}, {} -- flat tables: wrk copies those between threads
bad_example = ""

function init(args)
  local n_threads = tonumber(os.getenv("THREADS") or "1")
  local all = {}
  for line in io.lines(os.getenv("TABLES")) do
    local public_id, token, revision = line:match("^(%S+)%s+(%S+)%s+(%S+)")
    if public_id then
      local i = #all + 1 -- each table's phones come from an address of their own (X-Forwarded-For)
      table.insert(all, { id = public_id, token = token, etag = '"r' .. revision .. '"',
                          addr = string.format("10.%d.%d.%d", math.floor(i / 65536) % 256, math.floor(i / 256) % 256, i % 256) })
    end
  end
  -- Each table has 4 phones, each with the ETag of its own last answer (so a new hand costs each
  -- phone one full answer, as at a real table); phone p of table i belongs to thread (4i + p) mod
  -- threads, so a table's phones are on several connections, hence on both of gunicorn's workers,
  -- as at a real table. A thread polls as one of its phones, loads the page and records at that
  -- phone's table. (Fewer phones than threads: every thread plays every phone.)
  for i, t in ipairs(all) do
    for p = 1, PHONES do
      if #all * PHONES < n_threads or (PHONES * (i - 1) + p - 1) % n_threads == id - 1 then
        table.insert(tables, { table = t, phone = t.id .. "/" .. p })
      end
    end
  end
  math.randomseed(id * 7919 + os.time())
  local rate = tonumber(os.getenv("RATE") or "0") or 0
  if rate > 0 then interval = 1000 * n_threads / rate end
  counter = (id - 1) * 11 - 1 -- the threads do not all record at the same moment; the first one starts with a hand
end

local function facts_body()
  local players = { "Ann", "Bo", "Cy", "Di" }
  local winner = players[counter % 4 + 1]
  local losers = {}
  for _, p in ipairs(players) do
    if p ~= winner then
      table.insert(losers, string.format('"%s": {"cards": %d, "jokers": %d}', p, 1 + counter % 7, counter % 2))
    end
  end
  return string.format('{"facts": {"winner": "%s", "losers": {%s}}, "request_id": "ev-%s-%d-%d"}',
    winner, table.concat(losers, ", "), run_word, id, counter)
end

function delay()
  if interval == 0 then return 0 end
  local t = now_ms()
  if next_at == nil then -- the threads start spread over one interval, then keep their pace
    next_at = t + interval * (id - 1) / tonumber(os.getenv("THREADS") or "1")
  elseif t - next_at > 1000 then -- far behind: do not burst to catch up
    next_at = t
  else
    next_at = next_at + interval
  end
  return math.max(0, next_at - t)
end

function request()
  counter = counter + 1
  local phone = tables[math.random(#tables)]
  current = phone.table
  local slot = counter % CYCLE
  local path = "/t/" .. current.id
  sent_at = now_ms()
  if slot == 0 then
    kind = "record"
    return wrk.format("POST", "/api/v1/tables/" .. current.id .. "/hands",
      { ["Authorization"] = "Bearer " .. current.token, ["Content-Type"] = "application/json",
        ["X-Forwarded-For"] = current.addr }, facts_body())
  elseif slot % 17 == 0 then -- 4 of the 85: slots 17, 34, 51, 68
    kind = "page"
    return wrk.format("GET", path, { ["X-Forwarded-For"] = current.addr })
  end
  kind = "poll"
  current_phone = phone.phone
  local etag = etags[current_phone] or current.etag
  return wrk.format("GET", path .. "/state", { ["X-Forwarded-For"] = current.addr, ["If-None-Match"] = etag })
end

function response(status, headers, body)
  local took = now_ms() - sent_at
  if kind == "poll" then table.insert(lat_poll, took)
  elseif kind == "page" then table.insert(lat_page, took)
  else table.insert(lat_record, took) end
  local ok
  if hello then
    ok = status == 200
  elseif kind == "poll" then
    ok = status == 200 or status == 304
    if status == 304 then counts.poll304 = counts.poll304 + 1 end
    if headers["ETag"] then etags[current_phone] = headers["ETag"] end
  elseif kind == "page" then
    ok = status == 200
  else
    ok = status == 201
  end
  counts[kind] = counts[kind] + 1
  if not ok then
    counts.bad = counts.bad + 1
    if bad_example == "" then bad_example = kind .. ":" .. status end
  end
end

local function percentile(values, p)
  if #values == 0 then return 0 end
  table.sort(values)
  return values[math.max(1, math.ceil(#values * p))]
end

function done(summary, lat, requests)
  local total = { poll = 0, poll304 = 0, page = 0, record = 0, bad = 0 }
  local all = { poll = {}, page = {}, record = {} }
  local example = ""
  for _, thread in ipairs(threads) do
    local c = thread:get("counts")
    for k, v in pairs(c) do total[k] = total[k] + v end
    for k, _ in pairs(all) do
      for _, v in ipairs(thread:get("lat_" .. k)) do table.insert(all[k], v) end
    end
    if example == "" then example = thread:get("bad_example") end
  end
  local e = summary.errors
  io.write(string.format(
    "MIX requests=%d seconds=%.3f p50=%.2f p99=%.2f socket_errors=%d bad=%d polls=%d polls304=%d pages=%d " ..
    "records=%d poll_p99=%.2f page_p99=%.2f record_p99=%.2f record_p50=%.2f example=%s\n",
    summary.requests, summary.duration / 1e6, lat:percentile(50) / 1000, lat:percentile(99) / 1000,
    e.connect + e.read + e.write + e.timeout, total.bad, total.poll, total.poll304, total.page,
    total.record, percentile(all.poll, 0.99), percentile(all.page, 0.99), percentile(all.record, 0.99),
    percentile(all.record, 0.5), example ~= "" and example or "-"))
end
