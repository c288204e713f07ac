// The Bundles stage lives here (being built).
