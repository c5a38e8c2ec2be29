// Public surface of chain/: re-exports only.
export {};
