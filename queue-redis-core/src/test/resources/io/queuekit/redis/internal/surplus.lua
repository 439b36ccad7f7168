local K_BODY = KEYS[1], KEYS[2]
return 1
