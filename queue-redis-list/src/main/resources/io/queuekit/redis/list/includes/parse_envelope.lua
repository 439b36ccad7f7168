-- id, attempt, enqueued ms and payload of an envelope; nil if it is not one
local function parse_envelope(e)
  local _, last, id, att, enq = string.find(e, '^(%S+) (%d+) (%d+) ')
  if not id then
    return nil
  end
  return id, tonumber(att), enq, string.sub(e, last + 1)
end
