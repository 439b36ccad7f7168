-- Appends to out what dead letter id, dead at score, is: the ms it died, its attempts, reason and
-- body (as stored, "<enqueued ms>:<payload>"). Returns out.
--- @include "int"
--- @include "ms_of"
local function dead_letter(out, id, score)
  out[#out + 1] = int(ms_of(score))
  out[#out + 1] = redis.call('HGET', K_ATT, id) or '0'
  out[#out + 1] = redis.call('HGET', K_REASON, id) or ''
  out[#out + 1] = redis.call('HGET', K_BODY, id) or ''
  return out
end
