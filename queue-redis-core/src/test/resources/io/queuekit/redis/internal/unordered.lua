local K_BODY, K_DEAD = KEYS[2], KEYS[1]
return 1
