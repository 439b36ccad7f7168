-- Checks, before a queue object's first send (a plain LPUSH, which checks nothing), that the keys
-- are a list queue's, and records the layout. No ARGV. Returns 1.
check_layout()
mark_layout()
return 1
