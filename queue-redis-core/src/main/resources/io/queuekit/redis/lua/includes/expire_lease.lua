-- A message whose lease expired on its attempt att (its deliveries so far): back to ready as its
-- next attempt, or once max_attempts were used, to the dead letters. Each storage says how:
-- ready_again(id, now, att, ...) makes it ready, store_dead(id, att, ...) stores its body and
-- attempts by id where dead letters keep them; ... is what the storage holds of the message
-- besides its id (the list queue's enqueued ms and payload; nothing for the delay queue).
-- Returns true if it was buried.
--- @include "bury"
--- @include "ready_again"
--- @include "store_dead"
local function expire_lease(id, att, now, max_attempts, retention, ...)
  if att >= max_attempts then
    store_dead(id, att, ...)
    bury(id, 'lease expired on attempt ' .. att .. ' of ' .. max_attempts, now, retention)
    return true
  end
  ready_again(id, now, att, ...)
  return false
end
