print("bench-index: being built")
