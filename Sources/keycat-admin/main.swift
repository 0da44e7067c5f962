print("keycat-admin")
