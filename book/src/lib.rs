//! fers-book: opening books. Polyglot `.bin` books for orthodox chess
//! ([`polyglot`]): keys, lookup, move decoding and random exits. fers books
//! for every variant are still to come.

pub mod polyglot;
pub mod polyglot_random;
