-- Called once a claim took its ids, with the next event (next_event.lua): wakes another consumer
-- for what is left, to share those already due, or to watch the next event while this one is
-- busy with what it took. However far off that event is: no consumer may have heard of it, and
-- the wake-up protocol (docs/wake-up-protocol.md) counts on this wake-up to cover it.
--- @include "wake"
local function after_claim(now, next)
  if next >= 0 then
    wake(next)
  end
end
