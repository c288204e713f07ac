// Shared benchmark helpers (being built).
