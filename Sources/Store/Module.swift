// The Store stage lives here (being built).
