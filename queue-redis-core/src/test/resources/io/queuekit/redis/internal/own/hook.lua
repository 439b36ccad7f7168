local function hook()
  return 'the transport hook'
end
