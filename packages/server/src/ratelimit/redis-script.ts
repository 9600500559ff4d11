/**
 * The per-request update of memory-store.ts `step`, in Lua so it runs atomically in Redis, for one or
 * more requests of one subject in order (those that arrived together share one call). The subject's
 * hashes are read once, every request is applied to that state in turn, and what changed is written
 * back once, with the expiry the last request touching it would have set: the same outcome as the
 * requests sent one by one, for a fixed handful of Redis commands whatever their number.
 * KEYS[1] is the subject's hash: its ban (u = until, s = started). KEYS[2..] are the window hashes
 * (c = count, r = resetAt, x = refusals): the subject's own, then its group's (c and r only: a group
 * window's refusals ban no one, since the group's other subjects may have filled it). A subject in a
 * group may have no window of its own: a request then writes the group's windows alone, and the
 * subject's hash changes only when a ban starts or ends.
 * Requests with the same arguments in a row (those of one millisecond, as a rule) travel once with
 * their number: ARGV[1] is the number of such runs, ARGV[2] the number of the subject's own windows;
 * then, per run: its number of requests, now, banLiftedAt ('' for none), banThreshold,
 * banUntilIfStarted, then limit and resetAtIfNew per window, own then group's (argument k of the run
 * starting after `base` is ARGV[base + k]).
 * Instants travel as the caller's strings so epoch milliseconds are stored digit for digit.
 * Reply: one flat array of integers, per request in order: 1, until, startedNow for a ban, or 0,
 * allowed, refusing (1-based, 0 for none), then count and resetAt per window.
 */
export const CONSUME_SCRIPT = `
local n = #KEYS - 1
local own = tonumber(ARGV[2])
local per = 5 + 2 * n

local stored = redis.call('HMGET', KEYS[1], 'u', 's')
local ban = stored[1] and {ends = stored[1], began = stored[2]} or false
local subjectChanged, banTtl = false, 0
local counts, resets, refused = {}, {}, {}
for i = 1, n do
  local w = redis.call('HMGET', KEYS[i + 1], 'c', 'r', 'x')
  if w[1] then
    counts[i], resets[i], refused[i] = tonumber(w[1]), w[2], tonumber(w[3] or 0)
  end
end
local ownNow, groupNow = false, false
local replies, m = {}, 0
local function put(value)
  m = m + 1
  replies[m] = value
end

local function consume(base)
  local now = tonumber(ARGV[base + 2])
  if ban then
    local lifted = ARGV[base + 3] ~= '' and tonumber(ban.began) <= tonumber(ARGV[base + 3])
    if now < tonumber(ban.ends) and not lifted then
      put(1); put(tonumber(ban.ends)); put(0)
      return
    end
    ban, subjectChanged = false, true
  end

  local refusing = 0
  for i = 1, n do
    if not (resets[i] and now < tonumber(resets[i])) then
      counts[i], resets[i], refused[i] = 0, ARGV[base + 5 + 2 * i], 0
      if i > own then groupNow = now end
    end
    local full = counts[i] >= tonumber(ARGV[base + 4 + 2 * i])
    if full and (refusing == 0 or tonumber(resets[i]) > tonumber(resets[refusing])) then
      refusing = i
    end
  end

  local started = false
  if refusing == 0 then
    for i = 1, n do counts[i] = counts[i] + 1 end
    groupNow = now
  elseif refusing <= own then
    refused[refusing] = refused[refusing] + 1
    if refused[refusing] > tonumber(ARGV[base + 4]) then
      started = true
      for i = 1, own do refused[i] = 0 end
    end
  end
  ownNow = now
  if started then
    ban, subjectChanged, banTtl = {ends = ARGV[base + 5], began = ARGV[base + 2]}, true, tonumber(ARGV[base + 5]) - now
    put(1); put(tonumber(ARGV[base + 5])); put(1)
    return
  end

  put(0); put(refusing == 0 and 1 or 0); put(refusing)
  for i = 1, n do put(counts[i]); put(tonumber(resets[i])) end
end

local base = 2
for _ = 1, tonumber(ARGV[1]) do
  for _ = 1, tonumber(ARGV[base + 1]) do consume(base) end
  base = base + per
end

for i = 1, n do
  if i <= own and ownNow then
    redis.call('HSET', KEYS[i + 1], 'c', counts[i], 'r', resets[i], 'x', refused[i])
    redis.call('PEXPIRE', KEYS[i + 1], tonumber(resets[i]) - ownNow)
  elseif i > own and groupNow then
    redis.call('HSET', KEYS[i + 1], 'c', counts[i], 'r', resets[i])
    redis.call('PEXPIRE', KEYS[i + 1], tonumber(resets[i]) - groupNow)
  end
end
if subjectChanged then
  redis.call('DEL', KEYS[1])
  if ban then
    redis.call('HSET', KEYS[1], 'u', ban.ends, 's', ban.began)
    redis.call('PEXPIRE', KEYS[1], banTtl)
  end
end
return replies
`;
