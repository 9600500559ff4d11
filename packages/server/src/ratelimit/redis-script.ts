/**
 * The per-request update of memory-store.ts `step`, in Lua so it runs atomically in Redis.
 * KEYS[1] is the ban hash (u = until, s = started); KEYS[2..] are the window hashes
 * (c = count, r = resetAt, x = refusals). ARGV: now, banLiftedAt ('' for none), banThreshold,
 * banUntilIfStarted, then limit and resetAtIfNew per window. Instants travel as the caller's strings
 * so epoch milliseconds are stored digit for digit.
 * Reply: {1, until, startedNow} for a ban, or {0, allowed, refusing (1-based, 0 for none),
 * count, resetAt per window}.
 */
export const CONSUME_SCRIPT = `
local now = tonumber(ARGV[1])
local ban = redis.call('HMGET', KEYS[1], 'u', 's')
if ban[1] then
  local lifted = ARGV[2] ~= '' and tonumber(ban[2]) <= tonumber(ARGV[2])
  if now < tonumber(ban[1]) and not lifted then
    return {1, ban[1], 0}
  end
  redis.call('DEL', KEYS[1])
end

local n = #KEYS - 1
local counts, resets, refused = {}, {}, {}
local refusing = 0
for i = 1, n do
  local w = redis.call('HMGET', KEYS[i + 1], 'c', 'r', 'x')
  if w[1] and now < tonumber(w[2]) then
    counts[i], resets[i], refused[i] = tonumber(w[1]), w[2], tonumber(w[3])
  else
    counts[i], resets[i], refused[i] = 0, ARGV[4 + 2 * i], 0
  end
  local full = counts[i] >= tonumber(ARGV[3 + 2 * i])
  if full and (refusing == 0 or tonumber(resets[i]) > tonumber(resets[refusing])) then
    refusing = i
  end
end

local started = false
if refusing == 0 then
  for i = 1, n do counts[i] = counts[i] + 1 end
else
  refused[refusing] = refused[refusing] + 1
  if refused[refusing] > tonumber(ARGV[3]) then
    started = true
    for i = 1, n do refused[i] = 0 end
  end
end

for i = 1, n do
  redis.call('HSET', KEYS[i + 1], 'c', counts[i], 'r', resets[i], 'x', refused[i])
  redis.call('PEXPIRE', KEYS[i + 1], tonumber(resets[i]) - now)
end
if started then
  redis.call('HSET', KEYS[1], 'u', ARGV[4], 's', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]) - now)
  return {1, ARGV[4], 1}
end

local reply = {0, refusing == 0 and 1 or 0, refusing}
for i = 1, n do
  reply[#reply + 1] = counts[i]
  reply[#reply + 1] = resets[i]
end
return reply
`;
