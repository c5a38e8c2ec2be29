// Public surface of config/: re-exports only.
export {};
