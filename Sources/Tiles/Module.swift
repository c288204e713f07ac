// The Tiles stage lives here (being built).
