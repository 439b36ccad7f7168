-- The delay queue keeps every message's body and attempts by id, where dead letters keep them:
-- nothing to store.
local function store_dead(id, att)
end
