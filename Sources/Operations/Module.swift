// The Operations stage lives here (being built).
