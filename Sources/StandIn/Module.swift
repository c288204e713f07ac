// The StandIn stage lives here (being built).
