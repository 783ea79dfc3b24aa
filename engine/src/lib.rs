//! fers-engine: protocols, search and evaluation over fers-core.
