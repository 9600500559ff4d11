/**
 * The per-request update of memory-store.ts `step`, in Lua so it runs atomically in Redis, for one or
 * more requests of one subject in order (those that arrived together share one call).
 * KEYS[1] is the ban hash (u = until, s = started); KEYS[2..] are the window hashes
 * (c = count, r = resetAt, x = refusals). ARGV[1] is the number of requests; then, per request: now,
 * banLiftedAt ('' for none), banThreshold, banUntilIfStarted, then limit and resetAtIfNew per window.
 * Instants travel as the caller's strings so epoch milliseconds are stored digit for digit.
 * Reply: per request, {1, until, startedNow} for a ban, or {0, allowed, refusing (1-based, 0 for
 * none), count, resetAt per window}.
 */
export const CONSUME_SCRIPT = `
local n = #KEYS - 1

local function consume(base)
  local function arg(i) return ARGV[base + i] end
  local now = tonumber(arg(1))
  local ban = redis.call('HMGET', KEYS[1], 'u', 's')
  if ban[1] then
    local lifted = arg(2) ~= '' and tonumber(ban[2]) <= tonumber(arg(2))
    if now < tonumber(ban[1]) and not lifted then
      return {1, ban[1], 0}
    end
    redis.call('DEL', KEYS[1])
  end

  local counts, resets, refused = {}, {}, {}
  local refusing = 0
  for i = 1, n do
    local w = redis.call('HMGET', KEYS[i + 1], 'c', 'r', 'x')
    if w[1] and now < tonumber(w[2]) then
      counts[i], resets[i], refused[i] = tonumber(w[1]), w[2], tonumber(w[3])
    else
      counts[i], resets[i], refused[i] = 0, arg(4 + 2 * i), 0
    end
    local full = counts[i] >= tonumber(arg(3 + 2 * i))
    if full and (refusing == 0 or tonumber(resets[i]) > tonumber(resets[refusing])) then
      refusing = i
    end
  end

  local started = false
  if refusing == 0 then
    for i = 1, n do counts[i] = counts[i] + 1 end
  else
    refused[refusing] = refused[refusing] + 1
    if refused[refusing] > tonumber(arg(3)) then
      started = true
      for i = 1, n do refused[i] = 0 end
    end
  end

  for i = 1, n do
    redis.call('HSET', KEYS[i + 1], 'c', counts[i], 'r', resets[i], 'x', refused[i])
    redis.call('PEXPIRE', KEYS[i + 1], tonumber(resets[i]) - now)
  end
  if started then
    redis.call('HSET', KEYS[1], 'u', arg(4), 's', arg(1))
    redis.call('PEXPIRE', KEYS[1], tonumber(arg(4)) - now)
    return {1, arg(4), 1}
  end

  local reply = {0, refusing == 0 and 1 or 0, refusing}
  for i = 1, n do
    reply[#reply + 1] = counts[i]
    reply[#reply + 1] = resets[i]
  end
  return reply
end

local replies = {}
local per = 4 + 2 * n
for r = 1, tonumber(ARGV[1]) do
  replies[r] = consume(1 + (r - 1) * per)
end
return replies
`;
