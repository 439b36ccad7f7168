local function hook()
  return 'the core hook'
end
