// The Fetch stage lives here (being built).
