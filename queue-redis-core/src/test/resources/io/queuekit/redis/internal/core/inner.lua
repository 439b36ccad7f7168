local function inner()
  return 'inner'
end
