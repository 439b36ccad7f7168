-- no keys
return 1
