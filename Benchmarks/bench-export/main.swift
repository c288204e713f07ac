print("bench-export: being built")
