// Public surface of match/: re-exports only.
export {};
