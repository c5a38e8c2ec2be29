// Public surface of review/: re-exports only.
export {};
