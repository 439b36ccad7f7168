-- Hands entry sid (its fields as a table) out as attempt att under a lease ending now + lease ms,
-- appending to out: message id, attempt, stream id, payload section, enqueue ms.
local function deliver(out, sid, f, att, now, lease)
  redis.call('ZADD', K_INFLIGHT, now + lease, sid)
  out[#out + 1] = f['i'] or ('@' .. sid)
  out[#out + 1] = att
  out[#out + 1] = sid
  out[#out + 1] = f['b'] or ''
  out[#out + 1] = f['e'] or string.match(sid, '^(%d+)')
end
