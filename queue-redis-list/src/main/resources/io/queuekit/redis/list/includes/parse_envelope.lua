-- The parts of an envelope "<id> <attempt> <enqueued ms> <payload>": its id, attempt (a number),
-- enqueued ms (as written) and the index its payload starts at; nil if e is not an envelope.
local function parse_envelope(e)
  local _, last, id, att, enq = string.find(e, '^(%S+) (%d+) (%d+) ')
  if id then
    return id, tonumber(att), enq, last + 1
  end
end
