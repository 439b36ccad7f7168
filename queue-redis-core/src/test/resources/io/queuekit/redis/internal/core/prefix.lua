-- core: what keys of bodies begin with
local PREFIX = 'body:'
